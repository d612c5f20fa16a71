-- CreateEnum
CREATE TYPE "alert_kind" AS ENUM ('low_rating', 'health_safety', 'negative_share_rise');

-- CreateEnum
CREATE TYPE "alert_channel" AS ENUM ('webhook', 'email', 'mesh');

-- CreateEnum
CREATE TYPE "alert_delivery_state" AS ENUM ('pending', 'delivered', 'failed');

-- AlterTable
ALTER TABLE "schedules" ADD COLUMN     "analyse_after_run" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "alert_rules" (
    "id" UUID NOT NULL,
    "name" TEXT,
    "kind" "alert_kind" NOT NULL,
    "threshold" INTEGER,
    "category" TEXT,
    "max_age_days" INTEGER NOT NULL DEFAULT 7,
    "schedule_id" UUID,
    "place_id" UUID,
    "api_key_id" UUID,
    "created_by_user_id" TEXT,
    "webhook_url" TEXT,
    "webhook_secret_enc" TEXT,
    "email" TEXT,
    "mesh_id" UUID,
    "mesh_group" TEXT,
    "locale" TEXT NOT NULL DEFAULT 'en',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "execution_id" UUID,
    "review_id" UUID,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_deliveries" (
    "id" UUID NOT NULL,
    "alert_id" UUID NOT NULL,
    "channel" "alert_channel" NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "queue" TEXT NOT NULL DEFAULT 'default',
    "state" "alert_delivery_state" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "alert_rules_schedule_id_idx" ON "alert_rules"("schedule_id");

-- CreateIndex
CREATE INDEX "alert_rules_place_id_idx" ON "alert_rules"("place_id");

-- CreateIndex
CREATE INDEX "alert_rules_api_key_id_created_at_idx" ON "alert_rules"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "alerts_rule_id_created_at_idx" ON "alerts"("rule_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "alerts_rule_id_subject_key" ON "alerts"("rule_id", "subject");

-- CreateIndex
CREATE INDEX "alert_deliveries_queue_state_next_attempt_at_idx" ON "alert_deliveries"("queue", "state", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "alert_deliveries_alert_id_channel_target_key" ON "alert_deliveries"("alert_id", "channel", "target");

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_place_id_fkey" FOREIGN KEY ("place_id") REFERENCES "places"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_created_by_user_id_fkey" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_mesh_id_fkey" FOREIGN KEY ("mesh_id") REFERENCES "meshes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
