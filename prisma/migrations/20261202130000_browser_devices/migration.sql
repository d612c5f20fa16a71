-- Browser devices (issue 45): a member made in the person's browser for the chat page, and the passphrase-sealed
-- backups of its keys (the server cannot open them).
-- AlterTable
ALTER TABLE "members" ADD COLUMN     "browser_device" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "key_backups" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "mesh_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "sealed" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "key_backups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "key_backups_user_id_mesh_id_idx" ON "key_backups"("user_id", "mesh_id");

-- CreateIndex
CREATE UNIQUE INDEX "key_backups_user_id_member_id_key" ON "key_backups"("user_id", "member_id");

-- AddForeignKey
ALTER TABLE "key_backups" ADD CONSTRAINT "key_backups_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "key_backups" ADD CONSTRAINT "key_backups_mesh_id_fkey" FOREIGN KEY ("mesh_id") REFERENCES "meshes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "key_backups" ADD CONSTRAINT "key_backups_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
