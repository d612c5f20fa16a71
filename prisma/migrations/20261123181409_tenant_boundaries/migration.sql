-- DropIndex
DROP INDEX "callback_deliveries_state_next_attempt_at_idx";

-- DropIndex
DROP INDEX "jobs_status_priority_created_at_idx";

-- DropIndex
DROP INDEX "reviews_platform_place_key_external_id_key";

-- AlterTable
ALTER TABLE "callback_deliveries" ADD COLUMN     "host" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "queue" TEXT NOT NULL DEFAULT 'default';

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "lease_until" TIMESTAMP(3),
ADD COLUMN     "place_name" TEXT,
ADD COLUMN     "queue" TEXT NOT NULL DEFAULT 'default',
ADD COLUMN     "run_after" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "pipeline_executions" ADD COLUMN     "places" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "review_count" INTEGER;

-- AlterTable
ALTER TABLE "reviews" ADD COLUMN     "content_hash" TEXT,
ADD COLUMN     "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "origin" TEXT NOT NULL DEFAULT '';

-- Rows written before review versions existed: each is its own version (nothing to deduplicate against).
UPDATE "reviews" SET "content_hash" = 'legacy:' || "id"::text;
ALTER TABLE "reviews" ALTER COLUMN "content_hash" SET NOT NULL;

-- The host of each pending callback (bounded attempts per host), and a lease for runs in flight
-- when the product's own queue replaced pg-boss for jobs and callbacks: a job left running by a
-- worker of the previous version is taken again after the default time limit and grace.
UPDATE "callback_deliveries" SET "host" = lower(substring("url" from '^[a-zA-Z]+://([^/?#]+)'));
UPDATE "jobs" SET "lease_until" = CURRENT_TIMESTAMP + interval '150 seconds' WHERE "status" = 'running';

-- CreateIndex
CREATE INDEX "callback_deliveries_queue_state_next_attempt_at_idx" ON "callback_deliveries"("queue", "state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "jobs_take_idx" ON "jobs"("queue", "status", "priority" DESC, "id");

-- CreateIndex
CREATE INDEX "jobs_lease_idx" ON "jobs"("queue", "status", "lease_until");

-- CreateIndex
CREATE INDEX "jobs_status_created_at_idx" ON "jobs"("status", "created_at");

-- CreateIndex
CREATE INDEX "pipeline_executions_triggered_by_api_key_id_pipeline_id_cre_idx" ON "pipeline_executions"("triggered_by_api_key_id", "pipeline_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "pipeline_executions_triggered_by_user_id_pipeline_id_create_idx" ON "pipeline_executions"("triggered_by_user_id", "pipeline_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "reviews_platform_origin_place_key_external_id_content_hash_key" ON "reviews"("platform", "origin", "place_key", "external_id", "content_hash");

-- Executions written before ownership: readable by administrators only (they have no key scope
-- recorded, and administrators see every execution).
ALTER TABLE "pipeline_executions" ADD COLUMN "read_scope_api_key_id" UUID;
