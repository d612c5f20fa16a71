-- AlterTable
ALTER TABLE "pipeline_executions" ADD COLUMN     "empty_reason" TEXT;

-- CreateIndex
CREATE INDEX "places_name_trgm_idx" ON "places" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "places_platform_id_idx" ON "places"("platform_id");
