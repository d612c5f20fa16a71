-- CreateTable
CREATE TABLE "used_nonces" (
    "key" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "used_nonces_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "used_nonces_expires_at_idx" ON "used_nonces"("expires_at");
