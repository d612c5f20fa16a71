import { Prisma, sqlRows, type Db } from "@/server/core/db";
import type { KnownReviews, ScrapedReview } from "@/server/scrapers/types";
import type { ReviewSource } from "./review-store";

// What changed since the last time (docs/review-engine.md, "Monitoring"): each review a job reads is
// compared with the latest version of it that an earlier job *of the same API key* collected (another
// key's jobs are not looked at: a client learns nothing of what others collect). `new`: never
// collected; `updated`: its text, rating or owner reply differ (the earlier version stays stored:
// it is the review's history); `unchanged`: the same text, rating and reply.

/** A `new_only` job's stop when its request names none. */
export const DEFAULT_STOP_AFTER_KNOWN = 20;

export type ReviewChange = "new" | "updated" | "unchanged";
export interface ChangeCounts {
  new: number;
  updated: number;
  unchanged: number;
}

/** Who compares: the job's API key (null: an administrator's jobs), and the job itself (left out). */
export interface ChangeScope {
  apiKeyId: string | null;
  jobId: string;
}

/** How each review (by position) compares with the key's latest earlier version of it; one statement. */
export async function classifyReviews(
  db: Db | Prisma.TransactionClient,
  scope: ChangeScope,
  source: ReviewSource,
  reviews: ScrapedReview[],
): Promise<ReviewChange[]> {
  if (reviews.length === 0) return [];
  const input = reviews.map((r) => ({
    external_id: r.externalId,
    text: r.text,
    rating: r.rating === null ? null : Math.round(r.rating),
    owner_reply: r.ownerReply,
  }));
  const rows = await sqlRows<{ change: ReviewChange }>(
    db,
    Prisma.sql`
    SELECT CASE WHEN p.found IS NULL THEN 'new'
      WHEN p.text IS NOT DISTINCT FROM i.text AND p.rating IS NOT DISTINCT FROM i.rating AND p.owner_reply IS NOT DISTINCT FROM i.owner_reply THEN 'unchanged'
      ELSE 'updated' END AS change
    FROM ROWS FROM (json_to_recordset(${JSON.stringify(input)}::json) AS (external_id text, text text, rating int, owner_reply text))
      WITH ORDINALITY AS i(external_id, text, rating, owner_reply, n)
    LEFT JOIN LATERAL (
      SELECT true AS found, r.text, r.rating, r.owner_reply
      FROM reviews r JOIN job_reviews jr ON jr.review_id = r.id JOIN jobs j ON j.id = jr.job_id
      WHERE r.platform = ${source.platform} AND r.origin = ${source.origin} AND r.place_key = ${source.placeKey} AND r.external_id = i.external_id
        AND j.api_key_id IS NOT DISTINCT FROM ${scope.apiKeyId}::uuid AND j.id <> ${scope.jobId}::uuid
      ORDER BY j.id DESC, r.collected_at DESC
      LIMIT 1
    ) p ON true
    ORDER BY i.n`,
  );
  return rows.map((r) => r.change);
}

export function countChanges(changes: ReviewChange[]): ChangeCounts {
  const counts: ChangeCounts = { new: 0, updated: 0, unchanged: 0 };
  for (const c of changes) counts[c]++;
  return counts;
}

/**
 * The `new_only` stop for a scraper (ScrapeContext.known): the index just past the first run of
 * `stopAfter` consecutive unchanged reviews in the list read so far, or null. Each review is looked up
 * once per run (its answer kept by id and content).
 */
export function knownReviews(db: Db, scope: ChangeScope, platform: string, stopAfter: number): KnownReviews {
  const seen = new Map<string, ReviewChange>();
  const keyOf = (r: ScrapedReview) =>
    JSON.stringify([r.externalId, r.text, r.rating === null ? null : Math.round(r.rating), r.ownerReply]);
  return {
    stopAfter,
    async cutAt(source, reviews) {
      const missing = [...new Map(reviews.filter((r) => !seen.has(keyOf(r))).map((r) => [keyOf(r), r])).values()];
      const changes = await classifyReviews(
        db,
        scope,
        { platform, origin: source.origin, placeKey: source.placeKey },
        missing,
      );
      missing.forEach((r, i) => seen.set(keyOf(r), changes[i] as ReviewChange));
      let run = 0;
      for (let i = 0; i < reviews.length; i++) {
        run = seen.get(keyOf(reviews[i] as ScrapedReview)) === "unchanged" ? run + 1 : 0;
        if (run >= stopAfter) return i + 1;
      }
      return null;
    },
  };
}
