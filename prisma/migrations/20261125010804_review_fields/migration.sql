-- CreateEnum
CREATE TYPE "date_precision" AS ENUM ('exact', 'day', 'month', 'year');

-- AlterTable
ALTER TABLE "reviews" ADD COLUMN     "date_precision" "date_precision",
ADD COLUMN     "edited_at" TIMESTAMP(3),
ADD COLUMN     "helpful" INTEGER,
ADD COLUMN     "owner_reply_at" TIMESTAMP(3),
ADD COLUMN     "photos" JSONB,
ADD COLUMN     "reviewer_review_count" INTEGER,
ADD COLUMN     "reviewer_url" TEXT,
ADD COLUMN     "translated_language" TEXT,
ADD COLUMN     "translated_text" TEXT;
