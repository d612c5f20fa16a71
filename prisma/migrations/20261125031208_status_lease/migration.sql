-- AlterTable
ALTER TABLE "members" ADD COLUMN     "status_lease_until" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "members_status_lease_until_idx" ON "members"("status_lease_until");
