-- CreateEnum
CREATE TYPE "stop_reason" AS ENUM ('limit', 'end_of_list', 'since_reached', 'blocked', 'layout_changed', 'timeout', 'cancelled');

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "oldest_review_at" TIMESTAMP(3),
ADD COLUMN     "place_ref_id" UUID,
ADD COLUMN     "platform_total" INTEGER,
ADD COLUMN     "stop_reason" "stop_reason";

-- CreateTable
CREATE TABLE "places" (
    "id" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "place_key" TEXT NOT NULL,
    "platform_id" TEXT,
    "name" TEXT,
    "address" TEXT,
    "rating" DOUBLE PRECISION,
    "review_total" INTEGER,
    "histogram" JSONB,
    "first_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "places_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "places_last_seen_at_idx" ON "places"("last_seen_at");

-- CreateIndex
CREATE UNIQUE INDEX "places_platform_origin_place_key_key" ON "places"("platform", "origin", "place_key");

-- CreateIndex
CREATE INDEX "jobs_place_ref_id_created_at_idx" ON "jobs"("place_ref_id", "created_at");

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_place_ref_id_fkey" FOREIGN KEY ("place_ref_id") REFERENCES "places"("id") ON DELETE SET NULL ON UPDATE CASCADE;
