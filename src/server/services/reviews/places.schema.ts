import { z } from "zod";
import { ZPageInput } from "../meshes/schemas";
import { ZJobOut } from "./job-output.schema";
import { REVIEW_PAGE_MAX, ZReviewOut } from "./review-out.schema";
import { ZDate } from "./schemas";

// Inputs and outputs of the places (places.ts).

export const ZPlaceOut = z.object({
  id: z.string(),
  platform: z.string(),
  origin: z.string(),
  place_key: z.string(),
  platform_id: z.string().nullable(),
  name: z.string().nullable(),
  address: z.string().nullable(),
  rating: z.number().nullable(),
  review_total: z.number().int().nullable(),
  /** Reviews per star level as the platform shows them. */
  histogram: z.record(z.string(), z.number()).nullable(),
  first_seen_at: ZDate,
  last_seen_at: ZDate,
});

export type TPlaceOut = z.output<typeof ZPlaceOut>;

export const ZListPlacesInput = ZPageInput.extend({
  q: z.string().trim().max(100).optional(),
  sort: z.enum(["last_seen_at", "name", "review_total"]).default("last_seen_at"),
  dir: z.enum(["asc", "desc"]).default("desc"),
});

export const ZPlacesPage = z.object({
  items: z.array(ZPlaceOut),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const ZPlaceIdInput = z.object({ place_id: z.uuid() });

export const ZPlaceDetailOut = ZPlaceOut.extend({
  /** Distinct reviews of the place that the caller's jobs collected. */
  collected_reviews: z.number().int(),
  /** The caller's latest job of the place, with its coverage block. */
  latest_job: ZJobOut.nullable(),
});

const YMD = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/;

const ZWhen = z
  .string()
  .trim()
  .regex(YMD, { error: "a date (YYYY-MM-DD) or an ISO date-time" })
  .transform((v, ctx) => {
    // A date-time without a zone is UTC (never the server's zone).
    const d = new Date(v.includes("T") && !v.endsWith("Z") ? `${v}Z` : v);
    if (Number.isNaN(d.getTime())) ctx.addIssue({ code: "custom", message: "not a date" });
    return d;
  });

export const ZPlaceReviewsInput = ZPlaceIdInput.extend({
  limit: z.coerce.number().int().min(1).max(REVIEW_PAGE_MAX).default(100),
  // Long enough for the longest platform review id a cursor carries.
  cursor: z.string().trim().min(1).max(1000).optional().meta({ description: "next_cursor of the previous page" }),
  since: ZWhen.optional().meta({ description: "published at or after" }),
  until: ZWhen.optional().meta({ description: "published before" }),
  rating: z.coerce.number().int().min(1).max(5).optional(),
  language: z
    .string()
    .trim()
    .min(2)
    .max(10)
    .regex(/^[A-Za-z-]+$/)
    .optional(),
  q: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^\u0000-\u001f\u007f]*$/, { error: "no control characters" })
    .optional()
    .meta({ description: "text or author contains (case-insensitive)" }),
});

export const ZPlaceReviewsOut = z.object({ items: z.array(ZReviewOut), next_cursor: z.string().nullable() });

export const ZPlaceExportInput = ZPlaceReviewsInput.omit({ limit: true, cursor: true });
