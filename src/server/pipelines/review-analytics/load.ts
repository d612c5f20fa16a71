import type { Db } from "@/server/core/db";
import type { TReviewAnalyticsInput } from "./input";
import type { RawReview } from "./model";

/** Reads the reviews a run request selects from the reviews table (oldest first, bounded by max_reviews). */
export async function loadReviews(db: Db, input: TReviewAnalyticsInput): Promise<RawReview[]> {
  const publishedAt =
    input.from || input.to
      ? {
          ...(input.from ? { gte: new Date(`${input.from}T00:00:00.000Z`) } : {}),
          ...(input.to ? { lt: new Date(new Date(`${input.to}T00:00:00.000Z`).getTime() + 86_400_000) } : {}),
        }
      : undefined;
  const rows = await db.review.findMany({
    where: {
      ...(input.place_key ? { placeKey: input.place_key } : {}),
      ...(input.job_ids ? { jobs: { some: { jobId: { in: input.job_ids } } } } : {}),
      ...(publishedAt ? { publishedAt } : {}),
    },
    select: { id: true, author: true, rating: true, text: true, language: true, publishedAt: true },
    orderBy: [{ publishedAt: "asc" }, { id: "asc" }],
    take: input.max_reviews,
  });
  return rows;
}
