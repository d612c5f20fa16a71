-- AlterTable
ALTER TABLE "pipeline_executions" ADD COLUMN     "lease_until" TIMESTAMP(3),
ADD COLUMN     "queue" TEXT NOT NULL DEFAULT 'default',
ADD COLUMN     "run_after" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "runs" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "pipeline_executions_queue_status_run_after_idx" ON "pipeline_executions"("queue", "status", "run_after");

-- Pipeline executions leave pg-boss for the product's own claim (docs/pipelines.md, "Queue"): queued
-- rows are taken from the table as they are; a run left running by an earlier version gets the lease
-- the stale sweep gave it (30 minutes from its start) and counts as one run, so a lost one is taken over.
UPDATE "pipeline_executions"
SET "runs" = 1, "lease_until" = COALESCE("started_at", "queued_at") + interval '30 minutes'
WHERE "status" = 'running';
