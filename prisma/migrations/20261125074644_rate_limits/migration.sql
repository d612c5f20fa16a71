-- CreateTable
CREATE TABLE "rate_limits" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "last_refill_ms" DOUBLE PRECISION NOT NULL,
    "full_at_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "rate_limits_full_at_ms_idx" ON "rate_limits"("full_at_ms");
