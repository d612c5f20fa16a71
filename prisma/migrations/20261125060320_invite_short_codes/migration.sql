-- AlterTable
ALTER TABLE "invites" ADD COLUMN     "short_code_enc" TEXT,
ADD COLUMN     "short_code_hash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "invites_short_code_hash_key" ON "invites"("short_code_hash");
