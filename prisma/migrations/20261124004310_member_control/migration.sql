-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "audit_event_type" ADD VALUE 'member_removed';
ALTER TYPE "audit_event_type" ADD VALUE 'member_banned';
ALTER TYPE "audit_event_type" ADD VALUE 'member_unbanned';
ALTER TYPE "audit_event_type" ADD VALUE 'role_changed';

-- AlterTable
ALTER TABLE "meshes" ADD COLUMN     "key_epoch" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "mesh_bans" (
    "mesh_id" UUID NOT NULL,
    "peer_pubkey" TEXT NOT NULL,
    "banned_by_user_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mesh_bans_pkey" PRIMARY KEY ("mesh_id","peer_pubkey")
);

-- AddForeignKey
ALTER TABLE "mesh_bans" ADD CONSTRAINT "mesh_bans_mesh_id_fkey" FOREIGN KEY ("mesh_id") REFERENCES "meshes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mesh_bans" ADD CONSTRAINT "mesh_bans_banned_by_user_id_fkey" FOREIGN KEY ("banned_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
