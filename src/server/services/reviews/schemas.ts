import { z } from "zod";
import { isWebhookSecret } from "./callbacks/signing";

// The review engine's shared vocabulary (Document 1): statuses, scopes, dates, callback and target
// fields, pages and ids, which the use cases' own schemas (`<use-case>.schema.ts`) are built from.
// Field names are snake_case as in the spec's groups (requester_*, batch_*, callback_*); timestamps
// are Dates in tRPC, ISO strings in REST.

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export const BATCH_STATUSES = ["queued", "running", "completed", "cancelled"] as const;
export const REVIEW_SORTS = ["newest", "most_relevant", "highest_rating", "lowest_rating"] as const;
export const COLLECT_MODES = ["full", "new_only"] as const;
export const CALLBACK_STATES = ["none", "pending", "delivered", "failed"] as const;
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
export const targetShape = {
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
export const exactlyOnePlace: [
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

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });

export const ZIdInput = z.object({ id: z.uuid() });
export const ZBatchIdInput = z.object({ batch_id: z.uuid() });
export const ZJobIdInput = z.object({ job_id: z.uuid() });
