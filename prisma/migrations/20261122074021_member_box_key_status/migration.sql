-- AlterTable
ALTER TABLE "members" ADD COLUMN     "box_pubkey" TEXT,
ADD COLUMN     "status" TEXT,
ADD COLUMN     "status_at" TIMESTAMP(3),
ADD COLUMN     "status_text" TEXT;
