import { z } from "zod";

/** Run request of review-analytics: the reviews of a place (optionally in a date range) or of a set of jobs. */
export const ZReviewAnalyticsInput = z
  .object({
    place_key: z.string().trim().min(1).max(200).optional().meta({ description: "Place whose reviews are analysed", examples: ["demo-trattoria"] }),
    from: z.iso.date().optional().meta({ description: "First publication day (inclusive, UTC)" }),
    to: z.iso.date().optional().meta({ description: "Last publication day (inclusive, UTC)" }),
    job_ids: z.array(z.uuid()).min(1).max(100).optional().meta({ description: "Collection jobs whose reviews are analysed" }),
    max_reviews: z.int().min(1).max(200_000).default(100_000).meta({ description: "Upper bound of reviews read" }),
  })
  .strict()
  .refine((v) => v.place_key !== undefined || v.job_ids !== undefined, { error: "place_key_or_job_ids_required", path: ["place_key"] })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { error: "from_after_to", path: ["to"] });
export type TReviewAnalyticsInput = z.output<typeof ZReviewAnalyticsInput>;
