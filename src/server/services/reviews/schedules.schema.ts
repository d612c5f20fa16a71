import { z } from "zod";
import { CronError, parseCron } from "@/server/core/cron";
import { ZPageInput } from "../meshes/schemas";
import { callback, COLLECT_MODES, page, requester, ZDate, ZDateNull, ZJobTarget, ZPriority, ZText } from "./schemas";

// Inputs and outputs of the monitoring schedules (docs/review-engine.md, "Monitoring").

export const SCHEDULE_STATUSES = ["active", "paused"] as const;
/** Schedules one API key may hold. */
export const SCHEDULES_PER_KEY = 100;
/** Runs listed with a schedule (newest first; the page's chart shows them). */
export const SCHEDULE_RUNS_SHOWN = 100;

const ZCron = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .superRefine((text, ctx) => {
    try {
      parseCron(text);
    } catch (error) {
      if (!(error instanceof CronError)) throw error;
      ctx.addIssue({ code: "custom", message: `not a cron expression: ${error.message}` });
    }
  });

/** POST /api/schedules: the batch's targets, when (cron in UTC, or every interval_seconds), how, and its callback. */
export const ZCreateScheduleInput = z
  .object({
    name: ZText.optional(),
    ...requester,
    priority: ZPriority,
    ...callback,
    /** As the batch endpoint takes them; each run collects them with the schedule's mode. */
    targets: z.array(ZJobTarget).min(1),
    cron: ZCron.optional(),
    interval_seconds: z
      .number()
      .int()
      .min(1)
      .max(366 * 86_400)
      .optional(),
    /** The first slot of an interval schedule (default: now); a cron schedule's first slot is its next time. */
    start_at: z.coerce.date().optional(),
    mode: z.enum(COLLECT_MODES).default("new_only"),
    stop_after_known: z.number().int().min(1).max(1_000).default(20),
    /** Run review-analytics over each slot's batch once it ends (alert rules fire on those runs). */
    analyse_after_run: z.boolean().default(false),
  })
  .refine((v) => (v.cron === undefined) !== (v.interval_seconds === undefined), {
    error: "give exactly one of cron and interval_seconds",
    path: ["cron"],
  });
export type TCreateScheduleInput = z.input<typeof ZCreateScheduleInput>;

export const ZScheduleIdInput = z.object({ schedule_id: z.uuid() });
export const ZSetScheduleAnalysisInput = z.object({ schedule_id: z.uuid(), analyse_after_run: z.boolean() });

export const ZListSchedulesInput = ZPageInput.extend({
  status: z.enum(SCHEDULE_STATUSES).optional(),
  q: z.string().trim().max(100).optional(),
  sort: z.enum(["created_at", "next_run_at", "name"]).default("created_at"),
  dir: z.enum(["asc", "desc"]).default("desc"),
});

const ZCounts = z.object({ new: z.number().int(), updated: z.number().int(), unchanged: z.number().int() });

export const ZScheduleOut = z.object({
  id: z.string(),
  name: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  requester_client_id: z.string(),
  targets: z.array(z.record(z.string(), z.unknown())),
  cron: z.string().nullable(),
  interval_seconds: z.number().int().nullable(),
  mode: z.enum(COLLECT_MODES),
  stop_after_known: z.number().int(),
  analyse_after_run: z.boolean(),
  priority: z.number().int(),
  callback_url: z.string().nullable(),
  next_run_at: ZDate,
  last_run_at: ZDateNull,
  run_count: z.number().int(),
  /** Why the last slot made no batch (api_key_revoked, target_not_allowed, …); null after a run. */
  last_error: z.string().nullable(),
  created_at: ZDate,
});
export type TScheduleOut = z.output<typeof ZScheduleOut>;

/** One run: its batch, the slot it ran for, and the jobs' counts summed. */
export const ZScheduleRunOut = z.object({
  batch_id: z.string(),
  slot: ZDate,
  status: z.string(),
  total_jobs: z.number().int(),
  finished_jobs: z.number().int(),
  review_count: z.number().int(),
  /** Summed over the run's finished jobs; null while none has finished. */
  changes: ZCounts.nullable(),
  created_at: ZDate,
  completed_at: ZDateNull,
});

export const ZScheduleDetailOut = ZScheduleOut.extend({ runs: z.array(ZScheduleRunOut) });
export const ZSchedulesPage = page(ZScheduleOut);

export const ZReviewIdInput = z.object({ review_id: z.uuid() });
/** Every version of a review the caller's jobs collected, oldest first (GET /api/reviews/{review_id}/history). */
export const ZReviewHistoryOut = z.object({
  external_id: z.string(),
  place_key: z.string(),
  versions: z.array(
    z.object({
      id: z.string(),
      author: z.string().nullable(),
      rating: z.number().int().nullable(),
      text: z.string().nullable(),
      owner_reply: z.string().nullable(),
      edited_at: ZDateNull,
      first_collected_at: ZDate,
      last_seen_at: ZDate,
    }),
  ),
});

/** DELETE /api/schedules/{schedule_id}. */
export const ZDeletedScheduleOut = z.object({ id: z.string(), deleted: z.literal(true) });
