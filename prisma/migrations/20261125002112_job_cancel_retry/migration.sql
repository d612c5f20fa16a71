-- AlterEnum
ALTER TYPE "callback_kind" ADD VALUE 'job.cancelled';

-- DropIndex
DROP INDEX "callback_deliveries_batch_id_kind_key";

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "attempt_limit" INTEGER,
ADD COLUMN     "cancel_requested_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "callback_deliveries_batch_id_kind_idx" ON "callback_deliveries"("batch_id", "kind");
