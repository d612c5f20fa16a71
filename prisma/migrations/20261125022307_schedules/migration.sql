-- CreateEnum
CREATE TYPE "collect_mode" AS ENUM ('full', 'new_only');

-- CreateEnum
CREATE TYPE "schedule_status" AS ENUM ('active', 'paused');

-- AlterEnum
ALTER TYPE "stop_reason" ADD VALUE 'known_reached';

-- AlterTable
ALTER TABLE "batches" ADD COLUMN     "schedule_id" UUID,
ADD COLUMN     "schedule_slot" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "mode" "collect_mode" NOT NULL DEFAULT 'full',
ADD COLUMN     "new_reviews" INTEGER,
ADD COLUMN     "stop_after_known" INTEGER,
ADD COLUMN     "unchanged_reviews" INTEGER,
ADD COLUMN     "updated_reviews" INTEGER;

-- CreateTable
CREATE TABLE "schedules" (
    "id" UUID NOT NULL,
    "api_key_id" UUID,
    "name" TEXT,
    "requester_client_id" TEXT NOT NULL,
    "queue" TEXT NOT NULL DEFAULT 'default',
    "targets" JSONB NOT NULL,
    "cron" TEXT,
    "interval_seconds" INTEGER,
    "mode" "collect_mode" NOT NULL DEFAULT 'new_only',
    "stop_after_known" INTEGER NOT NULL DEFAULT 20,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "callback_url" TEXT,
    "callback_secret_enc" TEXT,
    "status" "schedule_status" NOT NULL DEFAULT 'active',
    "next_run_at" TIMESTAMP(3) NOT NULL,
    "last_run_at" TIMESTAMP(3),
    "run_count" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "schedules_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "schedules_queue_status_next_run_at_idx" ON "schedules"("queue", "status", "next_run_at");

-- CreateIndex
CREATE INDEX "schedules_api_key_id_created_at_idx" ON "schedules"("api_key_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "batches_schedule_id_schedule_slot_key" ON "batches"("schedule_id", "schedule_slot");

-- AddForeignKey
ALTER TABLE "batches" ADD CONSTRAINT "batches_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
