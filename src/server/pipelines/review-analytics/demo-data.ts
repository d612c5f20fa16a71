import type { Db } from "@/server/core/db";
import { generateReviews, type GenerateOptions } from "./generator";

/** Platform name of generated reviews (the demo reviews platform uses the neutral word too). */
export const DEMO_PLATFORM = "platform";

/**
 * Inserts generated reviews for a place into the reviews table (idempotent: the platform, place and
 * external id are unique). Returns how many rows were new.
 */
export async function insertGeneratedReviews(db: Db, placeKey: string, opts: GenerateOptions): Promise<number> {
  const reviews = generateReviews({ idPrefix: `${placeKey}-`, ...opts });
  let created = 0;
  for (let i = 0; i < reviews.length; i += 1000) {
    const chunk = reviews.slice(i, i + 1000);
    const result = await db.review.createMany({
      data: chunk.map((r) => ({
        platform: DEMO_PLATFORM,
        placeKey,
        externalId: r.id,
        author: r.author,
        rating: r.rating,
        text: r.text,
        language: r.language,
        publishedAt: r.publishedAt,
      })),
      skipDuplicates: true,
    });
    created += result.count;
  }
  return created;
}
