import { z } from "zod";
import { STOP_REASONS } from "@/server/scrapers/types";
import { ZPageInput } from "../meshes/schemas";
import { isWebhookSecret } from "./callbacks/signing";

// Inputs and outputs of the review engine's API (Document 1). Field names are snake_case as in the
// spec's groups (requester_*, batch_*, callback_*); timestamps are Dates in tRPC, ISO strings in REST.

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export const BATCH_STATUSES = ["queued", "running", "completed", "cancelled"] as const;
export const REVIEW_SORTS = ["newest", "most_relevant", "highest_rating", "lowest_rating"] as const;
export const COLLECT_MODES = ["full", "new_only"] as const;
export const CALLBACK_STATES = ["none", "pending", "delivered", "failed"] as const;
export const ERROR_CLASSES = [
  "target_not_found",
  "blocked",
  "rate_limited",
  "layout_changed",
  "timeout",
  "network",
  "invalid_target",
  "cancelled",
  "internal",
] as const;
export const API_SCOPES = ["jobs:read", "jobs:write", "admin"] as const;
export type TApiScope = (typeof API_SCOPES)[number];

/** A date in the API (an ISO date-time string in OpenAPI); every review-engine schema uses these. */
export const ZDate = z.date().meta({ override: { type: "string", format: "date-time" } });
export const ZDateNull = ZDate.nullable();
const ZLabel = z.string().trim().min(1).max(100);
export const ZText = z.string().trim().max(200);

/** A callback destination: absolute http(s) URL without credentials (private hosts are checked at delivery). */
export const ZCallbackUrl = z
  .url({ protocol: /^https?$/, error: "must be an http or https URL" })
  .max(2048)
  .refine((v) => !/^[a-z]+:\/\/[^/]*@/i.test(v), { error: "must not carry credentials" });

/** A per-callback secret in Standard Webhooks form: whsec_ + base64 of 24 to 64 random bytes. */
export const ZCallbackSecret = z
  .string()
  .max(200)
  .refine(isWebhookSecret, { error: "must be whsec_ followed by base64 of 24 to 64 bytes" });

/** Target of one job: where the reviews are, how many, in which order. */
const targetShape = {
  place_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  platform_id: z.string().trim().min(1).max(200).optional(),
  review_limit: z.number().int().min(1).max(5_000).default(100),
  sort: z.enum(REVIEW_SORTS).default("newest"),
  since: z.coerce.date().optional(),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, { error: "must be a language code such as en or pt-BR" })
    .optional(),
  scraper_version: ZLabel.optional(),
  scraper_variant: ZLabel.optional(),
  /** `new_only`: stop after `stop_after_known` consecutive reviews the key collected before, unchanged. */
  mode: z.enum(COLLECT_MODES).default("full"),
  stop_after_known: z.number().int().min(1).max(1_000).optional(),
};
const exactlyOnePlace: [
  (t: { place_url?: string; platform_id?: string }) => boolean,
  { error: string; path: string[] },
] = [
  (t) => Boolean(t.place_url) !== Boolean(t.platform_id),
  { error: "give exactly one of place_url and platform_id", path: ["place_url"] },
];
export const ZJobTarget = z.object(targetShape).refine(...exactlyOnePlace);

export const requester = {
  requester_client_id: z.string().trim().min(1).max(200),
  requester_source: ZText.optional(),
  requester_purpose: ZText.optional(),
};
export const callback = { callback_url: ZCallbackUrl.optional(), callback_secret: ZCallbackSecret.optional() };
export const ZPriority = z.number().int().min(0).max(10).default(5);

/** POST /api/scrape and /api/scrape/platform-reviews. */
export const ZCreateJobInput = z
  .object({ ...requester, priority: ZPriority, ...callback, ...targetShape })
  .refine(...exactlyOnePlace);
export type TCreateJobInput = z.input<typeof ZCreateJobInput>;

/** POST /api/scrape/platform-reviews/batch: shared requester, priority and callback, one target per job. */
export const ZCreateBatchInput = z.object({
  name: ZText.optional(),
  ...requester,
  priority: ZPriority,
  ...callback,
  jobs: z.array(ZJobTarget).min(1),
});
export type TCreateBatchInput = z.input<typeof ZCreateBatchInput>;

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
  error_class: z.enum(ERROR_CLASSES).nullable(),
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

export const ZBatchDetailOut = ZBatchOut.extend({ jobs: z.array(ZJobOut) });
export type TBatchDetailOut = z.output<typeof ZBatchDetailOut>;

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });

export const ZListBatchesInput = ZPageInput.extend({
  status: z.enum(BATCH_STATUSES).optional(),
  q: z.string().trim().max(100).optional(),
  sort: z.enum(["created_at", "total_jobs"]).default("created_at"),
  dir: z.enum(["asc", "desc"]).default("desc"),
});
export const ZBatchesPage = page(ZBatchOut);

export const ZListJobsInput = ZPageInput.extend({
  status: z.enum(JOB_STATUSES).optional(),
  batch_id: z.uuid().optional(),
  q: z.string().trim().max(100).optional(),
  sort: z.enum(["created_at", "priority", "finished_at"]).default("created_at"),
  dir: z.enum(["asc", "desc"]).default("desc"),
});
export const ZJobsPage = page(ZJobOut);

export const ZIdInput = z.object({ id: z.uuid() });
export const ZBatchIdInput = z.object({ batch_id: z.uuid() });
export const ZJobIdInput = z.object({ job_id: z.uuid() });
