import { z } from "zod";
import { SCRAPE_ERROR_CLASSES, STOP_REASONS } from "@/server/scrapers/types";
import {
  BATCH_STATUSES,
  CALLBACK_STATES,
  COLLECT_MODES,
  JOB_STATUSES,
  REVIEW_SORTS,
  ZDate,
  ZDateNull,
} from "./schemas";

// A job and a batch as the API answers them (job-output.ts maps the rows).

export const ZJobOut = z.object({
  id: z.string(),
  status: z.enum(JOB_STATUSES),
  priority: z.number().int(),
  requester_client_id: z.string(),
  requester_source: z.string().nullable(),
  requester_purpose: z.string().nullable(),
  batch_id: z.string().nullable(),
  batch_index: z.number().int().nullable(),
  callback_url: z.string().nullable(),
  callback_state: z.enum(CALLBACK_STATES),
  callback_attempts: z.number().int(),
  callback_last_status: z.number().int().nullable(),
  callback_last_error: z.string().nullable(),
  callback_delivered_at: ZDateNull,
  platform: z.string(),
  place_url: z.string().nullable(),
  platform_id: z.string().nullable(),
  /** The place's name as the platform showed it to this job (null until a run read it). */
  place_name: z.string().nullable(),
  review_limit: z.number().int(),
  sort: z.enum(REVIEW_SORTS),
  since: ZDateNull,
  language: z.string().nullable(),
  requested_version: z.string().nullable(),
  requested_variant: z.string().nullable(),
  scraper_version: z.string().nullable(),
  scraper_variant: z.string().nullable(),
  attempts: z.number().int(),
  review_count: z.number().int(),
  error_class: z.enum(SCRAPE_ERROR_CLASSES).nullable(),
  error_message: z.string().nullable(),
  created_at: ZDate,
  started_at: ZDateNull,
  finished_at: ZDateNull,
  duration_ms: z.number().int().nullable(),
  /** Set while a cancel request waits for the running run to stop (POST /api/jobs/{id}/cancel). */
  cancel_requested_at: ZDateNull,
  /** The place record the job read (GET /api/places/{place_id}); null until a run ended with a result. */
  place_id: z.string().nullable(),
  /** How complete the collection is: reviews collected against the platform's total, how far back, and why it stopped. */
  coverage: z.object({
    collected: z.number().int(),
    platform_total: z.number().int().nullable(),
    /** collected / platform_total, 0 to 1 (3 decimals); null when the platform showed no total. */
    share: z.number().nullable(),
    oldest_review_at: ZDateNull,
    stop_reason: z.enum(STOP_REASONS).nullable(),
  }),
  mode: z.enum(COLLECT_MODES),
  stop_after_known: z.number().int().nullable(),
  /** Against the latest versions the key's earlier jobs collected: never seen, text/rating/reply changed, the same. Null until a run ended with a result. */
  changes: z.object({ new: z.number().int(), updated: z.number().int(), unchanged: z.number().int() }).nullable(),
});
export type TJobOut = z.output<typeof ZJobOut>;

export const ZBatchOut = z.object({
  id: z.string(),
  name: z.string().nullable(),
  status: z.enum(BATCH_STATUSES),
  priority: z.number().int(),
  requester_client_id: z.string(),
  requester_source: z.string().nullable(),
  requester_purpose: z.string().nullable(),
  callback_url: z.string().nullable(),
  callback_state: z.enum(CALLBACK_STATES),
  total_jobs: z.number().int(),
  counts: z.object({
    queued: z.number().int(),
    running: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    cancelled: z.number().int(),
  }),
  finished_jobs: z.number().int(),
  /** Finished (succeeded, failed or cancelled) jobs as a whole percentage of all jobs. */
  percent: z.number().int(),
  created_at: ZDate,
  completed_at: ZDateNull,
  cancelled_at: ZDateNull,
});
export type TBatchOut = z.output<typeof ZBatchOut>;
