import { createHash } from "node:crypto";
import type { Prisma } from "@/server/core/db";
import type { ScrapedReview } from "@/server/scrapers/types";

// Stored reviews (docs/review-engine.md, "Reviews"): a row is one *version* of a review, keyed by the
// platform origin, the place, the platform's review id and a hash of its content, and never changed
// once written. A job links the versions it collected (job_reviews). Two jobs that read the same
// version share one row; a job that reads an edited review (or a different text under the same id)
// adds a version beside it. So what a job returns is exactly what it collected, whatever other jobs,
// of this client or another, collect later.

type Tx = Prisma.TransactionClient;

/** The content of a review as a scraper read it. */
export type ReviewContent = ScrapedReview;

/**
 * SHA-256 (hex) of a review's content: two reads of the same version give the same hash. The fields
 * shown beside a review (reply date, photos, reviewer, edit, translation) join the hash only when
 * present, so versions stored before they were read keep their hash. Votes (`helpful`) and the date's
 * precision do not make a new version (a version keeps the votes it was first read with).
 */
export function reviewContentHash(r: Omit<ReviewContent, "externalId">): string {
  const base: unknown[] = [
    r.author,
    r.rating,
    r.text,
    r.language,
    r.publishedAt ? r.publishedAt.toISOString() : null,
    r.ownerReply,
  ];
  const extra = [
    r.ownerReplyAt?.toISOString() ?? null,
    r.photos?.length ? r.photos : null,
    r.reviewerUrl ?? null,
    r.reviewerReviewCount ?? null,
    r.editedAt?.toISOString() ?? null,
    r.translatedText ?? null,
    r.translatedLanguage ?? null,
  ];
  const canonical = JSON.stringify(extra.some((v) => v !== null) ? [...base, ...extra] : base);
  return createHash("sha256").update(canonical).digest("hex");
}

/** One version per review id (the last read wins): a statement may not upsert one row twice. */
export const uniqueReviews = (reviews: ReviewContent[]): ReviewContent[] => [
  ...new Map(reviews.map((r) => [r.externalId, r])).values(),
];

/** Where collected reviews come from: the platform namespace, the origin read, and the place. */
export interface ReviewSource {
  platform: string;
  origin: string;
  placeKey: string;
}

/**
 * Stores the versions a job collected (deduplicated per version) and links them to the job, in one
 * statement. A version already stored is linked as it is (its `last_seen_at` moves on; its content
 * never changes), so a concurrent job storing the same version links the same row.
 */
export async function storeJobReviews(
  tx: Tx,
  jobId: string,
  source: ReviewSource,
  reviews: ReviewContent[],
): Promise<void> {
  const unique = uniqueReviews(reviews);
  if (unique.length === 0) return;
  const rows = unique.map((r) => {
    const rating = r.rating === null ? null : Math.round(r.rating);
    return {
      external_id: r.externalId,
      author: r.author,
      rating,
      text: r.text,
      language: r.language,
      published_at: r.publishedAt ? r.publishedAt.toISOString() : null,
      owner_reply: r.ownerReply,
      owner_reply_at: r.ownerReplyAt?.toISOString() ?? null,
      helpful: r.helpful ?? null,
      photos: r.photos ?? null,
      reviewer_url: r.reviewerUrl ?? null,
      reviewer_review_count: r.reviewerReviewCount ?? null,
      edited_at: r.editedAt?.toISOString() ?? null,
      translated_text: r.translatedText ?? null,
      translated_language: r.translatedLanguage ?? null,
      date_precision: r.datePrecision ?? null,
      content_hash: reviewContentHash({ ...r, rating }),
    };
  });
  // ON CONFLICT DO UPDATE (not DO NOTHING) so that RETURNING yields the existing row too, also one a
  // concurrent job committed after this statement began.
  await tx.$executeRaw`
    WITH input AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(
        external_id text, author text, rating int, text text, language text, published_at timestamptz, owner_reply text, content_hash text,
        owner_reply_at timestamptz, helpful int, photos jsonb, reviewer_url text, reviewer_review_count int, edited_at timestamptz,
        translated_text text, translated_language text, date_precision text)
    ), upserted AS (
      INSERT INTO reviews (id, platform, origin, place_key, external_id, content_hash, author, rating, text, language, published_at, owner_reply,
        owner_reply_at, helpful, photos, reviewer_url, reviewer_review_count, edited_at, translated_text, translated_language, date_precision)
      SELECT gen_random_uuid(), ${source.platform}, ${source.origin}, ${source.placeKey}, external_id, content_hash, author, rating, text, language,
        published_at AT TIME ZONE 'UTC', owner_reply, owner_reply_at AT TIME ZONE 'UTC', helpful, photos, reviewer_url, reviewer_review_count,
        edited_at AT TIME ZONE 'UTC', translated_text, translated_language, date_precision::date_precision FROM input
      -- A stored version never changes (votes included: a version keeps the count it was first read with).
      ON CONFLICT (platform, origin, place_key, external_id, content_hash) DO UPDATE SET last_seen_at = now() AT TIME ZONE 'UTC'
      RETURNING id
    )
    INSERT INTO job_reviews (job_id, review_id) SELECT ${jobId}::uuid, id FROM upserted ON CONFLICT DO NOTHING`;
}
