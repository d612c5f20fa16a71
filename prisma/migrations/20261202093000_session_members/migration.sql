-- One identity per assistant session (issue 43): a member may be the session member of a parent member
-- (the machine's member that created it with its key, POST /session); it ends with its parent.
-- A presence says whether its connection takes messages (the one-shot command line only sends).
-- AlterTable
ALTER TABLE "members" ADD COLUMN     "parent_member_id" UUID;

-- AlterTable
ALTER TABLE "presences" ADD COLUMN     "receives" BOOLEAN NOT NULL DEFAULT true;

-- CreateIndex
CREATE INDEX "members_parent_member_id_revoked_at_idx" ON "members"("parent_member_id", "revoked_at");

-- AddForeignKey
ALTER TABLE "members" ADD CONSTRAINT "members_parent_member_id_fkey" FOREIGN KEY ("parent_member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
