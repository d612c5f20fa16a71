-- DropIndex
DROP INDEX "members_mesh_id_user_id_key";

-- CreateIndex
CREATE UNIQUE INDEX "members_mesh_id_user_id_key" ON "members"("mesh_id", "user_id") WHERE (peer_pubkey IS NULL);
