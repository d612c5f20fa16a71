-- CreateTable
CREATE TABLE "reply_drafts" (
    "id" UUID NOT NULL,
    "execution_id" UUID NOT NULL,
    "review_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'draft',
    "text" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "fallback_from" TEXT,
    "source" TEXT NOT NULL,
    "reasons" TEXT[],
    "rating" INTEGER,
    "critical" BOOLEAN NOT NULL,
    "negative" TEXT[],
    "positive" TEXT[],
    "edited" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "changed_by_user_id" TEXT,
    "changed_by_api_key_id" UUID,

    CONSTRAINT "reply_drafts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reply_drafts_execution_id_state_idx" ON "reply_drafts"("execution_id", "state");

-- CreateIndex
CREATE UNIQUE INDEX "reply_drafts_execution_id_review_id_key" ON "reply_drafts"("execution_id", "review_id");

-- AddForeignKey
ALTER TABLE "reply_drafts" ADD CONSTRAINT "reply_drafts_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "pipeline_executions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
