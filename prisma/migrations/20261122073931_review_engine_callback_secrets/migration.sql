-- AlterTable
ALTER TABLE "batches" ADD COLUMN     "callback_secret_enc" TEXT;

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "callback_secret_enc" TEXT;
