import { z } from "zod";
import { DATE_PRECISIONS } from "@/server/scrapers/types";
import { ZBatchIdInput, ZDate, ZDateNull, ZJobIdInput } from "./schemas";

// Inputs and outputs of the reviews a job or batch collected, page by page (review-out.ts).

/** Most reviews one page holds. */
export const REVIEW_PAGE_MAX = 1000;

const ZCursor = z.string().trim().min(1).max(200).meta({ description: "next_cursor of the previous page" });

export const ZReviewPageInput = z.object({
  limit: z.coerce.number().int().min(1).max(REVIEW_PAGE_MAX).default(100),
  cursor: ZCursor.optional(),
});

export const ZJobReviewsInput = ZJobIdInput.extend(ZReviewPageInput.shape);

export const ZBatchReviewsInput = ZBatchIdInput.extend(ZReviewPageInput.shape);

export const ZReviewOut = z.object({
  id: z.string(),
  job_id: z.string(),
  external_id: z.string(),
  author: z.string().nullable(),
  rating: z.number().int().nullable(),
  text: z.string().nullable(),
  language: z.string().nullable(),
  published_at: ZDateNull,
  owner_reply: z.string().nullable(),
  collected_at: ZDate,
  /** How precise published_at is: exact, day, month or year (the platform wrote "2 months ago"); null when not known. */
  date_precision: z.enum(DATE_PRECISIONS).nullable(),
  owner_reply_at: ZDateNull,
  helpful: z.number().int().nullable(),
  photos: z.array(z.string()),
  reviewer_url: z.string().nullable(),
  reviewer_review_count: z.number().int().nullable(),
  edited_at: ZDateNull,
  /** The platform's translation of `text` (the original) and its language. */
  translated_text: z.string().nullable(),
  translated_language: z.string().nullable(),
});

export type TReviewOut = z.output<typeof ZReviewOut>;

export const ZReviewPageOut = z.object({ items: z.array(ZReviewOut), next_cursor: z.string().nullable() });
