-- Bans per person as well as per key (issue 41): a ban row has its own id, a peer key that may be null
-- (a person banned without one) and the banned user's id. Existing rows (key bans) get an id here.
-- AlterTable
ALTER TABLE "mesh_bans" DROP CONSTRAINT "mesh_bans_pkey",
ADD COLUMN     "id" UUID NOT NULL DEFAULT gen_random_uuid(),
ADD COLUMN     "user_id" TEXT,
ALTER COLUMN "peer_pubkey" DROP NOT NULL,
ADD CONSTRAINT "mesh_bans_pkey" PRIMARY KEY ("id");

-- The id is the application's (uuid v7), as for every other table.
ALTER TABLE "mesh_bans" ALTER COLUMN "id" DROP DEFAULT;

-- CreateIndex
CREATE INDEX "mesh_bans_mesh_id_user_id_idx" ON "mesh_bans"("mesh_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "mesh_bans_mesh_id_peer_pubkey_key" ON "mesh_bans"("mesh_id", "peer_pubkey");
