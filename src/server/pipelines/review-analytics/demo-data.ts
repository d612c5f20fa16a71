import type { Db } from "@/server/core/db";
import { storeJobReviews, type ReviewContent } from "@/server/services/reviews/review-store";
import { generateReviews, type GenerateOptions } from "./generator";

/** Platform name of generated reviews (the demo reviews platform uses the neutral word too). */
export const DEMO_PLATFORM = "platform";

/** Origin of generated reviews: a reserved name (RFC 6761), so it never collides with a real platform's. */
export const DEMO_ORIGIN = "https://demo.invalid";

const CHUNK = 1000;

/** Generated reviews of a place as a scraper would hand them over (ids prefixed with the place key). */
export function generatedReviewContents(placeKey: string, opts: GenerateOptions): ReviewContent[] {
  return generateReviews({ idPrefix: `${placeKey}-`, ...opts }).map((r) => ({
    externalId: r.id,
    author: r.author,
    rating: r.rating,
    text: r.text,
    language: r.language,
    publishedAt: r.publishedAt,
    ownerReply: null,
  }));
}

/**
 * Stores generated reviews of a place as versions collected by `jobId` (review-store.ts: one row per
 * version, linked to the job through job_reviews), so that they are readable exactly by whoever can
 * read that job. Idempotent: the same generated version is stored once and linked once. Returns how
 * many review rows of the place are new.
 */
export async function storeGeneratedReviews(
  db: Db,
  jobId: string,
  placeKey: string,
  opts: GenerateOptions,
): Promise<number> {
  const reviews = generatedReviewContents(placeKey, opts);
  const where = { platform: DEMO_PLATFORM, origin: DEMO_ORIGIN, placeKey };
  const before = await db.review.count({ where });
  for (let i = 0; i < reviews.length; i += CHUNK) {
    const chunk = reviews.slice(i, i + CHUNK);
    await db.$transaction((tx) =>
      storeJobReviews(tx, jobId, { platform: DEMO_PLATFORM, origin: DEMO_ORIGIN, placeKey }, chunk),
    );
  }
  return (await db.review.count({ where })) - before;
}
