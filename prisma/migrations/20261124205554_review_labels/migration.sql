-- CreateTable
CREATE TABLE "pipeline_review_labels" (
    "execution_id" UUID NOT NULL,
    "review_id" TEXT NOT NULL,
    "kept" BOOLEAN NOT NULL,
    "sentiment" TEXT,
    "critical" BOOLEAN NOT NULL,
    "language" TEXT,
    "rating" INTEGER,
    "month" TEXT,
    "weekday" INTEGER,
    "hour" INTEGER,
    "mentioned" TEXT[],
    "positive" TEXT[],
    "neutral" TEXT[],
    "negative" TEXT[],
    "issue_critical" TEXT[],
    "issue_high" TEXT[],
    "phrases" TEXT[],
    "origin" TEXT,
    "place_key" TEXT,

    CONSTRAINT "pipeline_review_labels_pkey" PRIMARY KEY ("execution_id","review_id")
);

-- AddForeignKey
ALTER TABLE "pipeline_review_labels" ADD CONSTRAINT "pipeline_review_labels_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "pipeline_executions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
