import { z } from "zod";

/** An origin as stored in reviews.origin: scheme, host and optional port, nothing after them. */
const ZOrigin = z
  .string()
  .trim()
  .max(300)
  .regex(/^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i, { error: "invalid_origin" });

/** Places one run may compare at most (Birdeye compares a business with up to five competitors: six places). */
export const MAX_PLACE_KEYS = 6;

/**
 * Run request of review-analytics: the reviews of a place (optionally of one platform origin), of a
 * set of jobs, or of the jobs of a set of batches, optionally in a date range. Every name must be data
 * the caller can read; the execute service checks that (input-access.ts), the schema only the shape.
 */
export const ZReviewAnalyticsInput = z
  .object({
    place_key: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "Place whose reviews are analysed", examples: ["demo-trattoria"] }),
    place_keys: z.array(z.string().trim().min(1).max(200)).min(1).max(MAX_PLACE_KEYS).optional().meta({
      description: "Places whose reviews are analysed and compared side by side (own locations or competitors)",
    }),
    origin: ZOrigin.optional().meta({
      description: "Platform origin of the place (scheme://host[:port]); every origin when absent",
    }),
    from: z.iso.date().optional().meta({ description: "First publication day (inclusive, UTC)" }),
    to: z.iso.date().optional().meta({ description: "Last publication day (inclusive, UTC)" }),
    job_ids: z
      .array(z.uuid())
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Collection jobs whose reviews are analysed" }),
    batch_ids: z
      .array(z.uuid())
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Batches whose jobs' reviews are analysed" }),
    max_reviews: z.int().min(1).max(200_000).default(100_000).meta({ description: "Upper bound of reviews read" }),
  })
  .strict()
  .refine(
    (v) =>
      v.place_key !== undefined || v.place_keys !== undefined || v.job_ids !== undefined || v.batch_ids !== undefined,
    { error: "place_key_job_ids_or_batch_ids_required", path: ["place_key"] },
  )
  .refine((v) => v.place_key === undefined || v.place_keys === undefined, {
    error: "place_key_or_place_keys",
    path: ["place_keys"],
  })
  .refine((v) => !v.place_keys || new Set(v.place_keys).size === v.place_keys.length, {
    error: "duplicate_place_keys",
    path: ["place_keys"],
  })
  .refine((v) => v.origin === undefined || v.place_key !== undefined || v.place_keys !== undefined, {
    error: "origin_needs_place_key",
    path: ["origin"],
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { error: "from_after_to", path: ["to"] });
export type TReviewAnalyticsInput = z.output<typeof ZReviewAnalyticsInput>;

/** The places a run request names (`place_key` or `place_keys`), or null when it selects by jobs or batches alone. */
export function selectedPlaceKeys(input: Pick<TReviewAnalyticsInput, "place_key" | "place_keys">): string[] | null {
  if (input.place_keys) return input.place_keys;
  return input.place_key !== undefined ? [input.place_key] : null;
}
