import type { z } from "zod";
import { nextCronTime, parseCron } from "@/server/core/cron";
import { Prisma, sqlRows } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { uuidv7 } from "@/server/core/ids";
import type { Schedule } from "@/generated/prisma/client";
import type { ServiceContext } from "../context";
import { readPage } from "../paging";
import { apiKeyIdOf, ownedBy, type ReviewActor } from "./access";
import { checkCallback, routeBatchTargets } from "./create-jobs";
import {
  SCHEDULE_RUNS_SHOWN,
  SCHEDULES_PER_KEY,
  type TScheduleOut,
  type ZCreateScheduleInput,
  type ZListSchedulesInput,
  type ZScheduleDetailOut,
  type ZReviewHistoryOut,
  type ZScheduleRunOut,
} from "./schedules.schema";
import { containsText } from "@/server/core/text-search";

// Monitoring schedules (docs/review-engine.md, "Monitoring"): a schedule keeps a batch's targets and
// runs them again at each slot (schedule-runner.ts, in the workers). Here: create, list, read, pause,
// resume, delete, each inside the caller's own schedules (another key's schedule is not found).

export const scheduleAad = (id: string) => `schedule-callback-secret:${id}`;

/** The first slot strictly after `after` (an interval schedule's slots are its anchor plus whole intervals). */
export function nextSlot(s: Pick<Schedule, "cron" | "intervalSeconds" | "nextRunAt">, after: Date): Date {
  if (s.cron) {
    const next = nextCronTime(parseCron(s.cron), after);
    if (!next) throw new AppError("UNPROCESSABLE", "cron_never_runs");
    return next;
  }
  const step = (s.intervalSeconds ?? 3_600) * 1000;
  const anchor = s.nextRunAt.getTime();
  if (anchor > after.getTime()) return new Date(anchor);
  return new Date(anchor + (Math.floor((after.getTime() - anchor) / step) + 1) * step);
}

export function toScheduleOut(s: Schedule): TScheduleOut {
  return {
    id: s.id,
    name: s.name,
    status: s.status,
    requester_client_id: s.requesterClientId,
    targets: s.targets as Record<string, unknown>[],
    cron: s.cron,
    interval_seconds: s.intervalSeconds,
    mode: s.mode,
    stop_after_known: s.stopAfterKnown,
    analyse_after_run: s.analyseAfterRun,
    priority: s.priority,
    callback_url: s.callbackUrl,
    next_run_at: s.nextRunAt,
    last_run_at: s.lastRunAt,
    run_count: s.runCount,
    last_error: s.lastError,
    created_at: s.createdAt,
  };
}

/** Creates a schedule after checking its targets route and are allowed now (422 as the batch endpoint answers). */
export async function createSchedule(
  ctx: ServiceContext<ReviewActor>,
  input: z.output<typeof ZCreateScheduleInput>,
): Promise<TScheduleOut> {
  const s = ctx.settings.review;
  if (input.targets.length > s.BATCH_MAX_JOBS)
    throw new AppError("UNPROCESSABLE", "batch_too_large", { max: s.BATCH_MAX_JOBS, given: input.targets.length });
  if (input.interval_seconds !== undefined && input.interval_seconds < s.SCHEDULE_MIN_INTERVAL_SECONDS) {
    throw new AppError("UNPROCESSABLE", "interval_too_short", { min_seconds: s.SCHEDULE_MIN_INTERVAL_SECONDS });
  }
  checkCallback(ctx, input.callback_url);
  await routeBatchTargets(ctx, input.targets);
  const apiKeyId = apiKeyIdOf(ctx.actor);
  const now = ctx.now();
  const id = uuidv7();
  const first = input.cron
    ? nextSlot({ cron: input.cron, intervalSeconds: null, nextRunAt: now }, now)
    : (input.start_at ?? now);
  // The count and the insert in one statement: concurrent creates cannot pass the cap together.
  const rows = await sqlRows<{ id: string }>(
    ctx.db,
    Prisma.sql`
    INSERT INTO schedules (id, api_key_id, queue, name, requester_client_id, targets, cron, interval_seconds, mode, stop_after_known, priority,
      callback_url, callback_secret_enc, next_run_at, analyse_after_run, updated_at)
    SELECT ${id}::uuid, ${apiKeyId}::uuid, ${s.JOB_QUEUE}, ${input.name ?? null}, ${input.requester_client_id}, ${JSON.stringify(input.targets.map(({ mode: _m, stop_after_known: _s, ...t }) => t))}::jsonb,
      ${input.cron ?? null}, ${input.interval_seconds ?? null}::int, ${input.mode}::collect_mode, ${input.stop_after_known}::int, ${input.priority}::int,
      ${input.callback_url ?? null}, ${input.callback_secret ? ctx.sealer.seal(input.callback_secret, scheduleAad(id)) : null},
      ${first}::timestamptz AT TIME ZONE 'UTC', ${input.analyse_after_run}, now()
    WHERE (SELECT count(*) FROM schedules WHERE api_key_id IS NOT DISTINCT FROM ${apiKeyId}::uuid) < ${SCHEDULES_PER_KEY}
    RETURNING id::text`,
  );
  if (rows.length === 0) throw new AppError("UNPROCESSABLE", "too_many_schedules", { max: SCHEDULES_PER_KEY });
  return toScheduleOut(await ctx.db.schedule.findUniqueOrThrow({ where: { id } }));
}

/** A schedule the caller can read (404 schedule_not_found as an absent one). */
export async function getScheduleRow(ctx: ServiceContext<ReviewActor>, id: string): Promise<Schedule> {
  const found = await ctx.db.schedule.findFirst({ where: { id, ...ownedBy(ctx.actor) } });
  if (!found) throw new AppError("NOT_FOUND", "schedule_not_found");
  return found;
}

/** One page of the caller's schedules. */
export function listSchedules(ctx: ServiceContext<ReviewActor>, input: z.output<typeof ZListSchedulesInput>) {
  const { db } = ctx;
  const where: Prisma.ScheduleWhereInput = {
    ...ownedBy(ctx.actor),
    ...(input.status ? { status: input.status } : {}),
    ...(input.q
      ? {
          OR: [{ name: containsText(input.q) }, { requesterClientId: containsText(input.q) }],
        }
      : {}),
  };
  const orderBy =
    input.sort === "name"
      ? { name: input.dir }
      : input.sort === "next_run_at"
        ? { nextRunAt: input.dir }
        : { createdAt: input.dir };
  return readPage(
    input,
    () => db.schedule.count({ where }),
    async (w) =>
      (await db.schedule.findMany({ where, orderBy: [orderBy, { id: input.dir }], ...w })).map(toScheduleOut),
  );
}

/** A schedule with its newest runs (SCHEDULE_RUNS_SHOWN) and each run's counts summed over its jobs. */
export async function getSchedule(
  ctx: ServiceContext<ReviewActor>,
  input: { schedule_id: string },
): Promise<z.output<typeof ZScheduleDetailOut>> {
  const id = input.schedule_id;
  const schedule = await getScheduleRow(ctx, id);
  const runs = await sqlRows<
    z.output<typeof ZScheduleRunOut> & { n: number | null; u: number | null; k: number | null }
  >(
    ctx.db,
    Prisma.sql`
    SELECT b.id::text AS batch_id, b.schedule_slot AS slot, b.status::text AS status, b.total_jobs, b.succeeded_jobs + b.failed_jobs + b.cancelled_jobs AS finished_jobs,
      COALESCE(sum(j.review_count), 0)::int AS review_count, sum(j.new_reviews)::int AS n, sum(j.updated_reviews)::int AS u, sum(j.unchanged_reviews)::int AS k,
      b.created_at, b.completed_at
    FROM batches b LEFT JOIN jobs j ON j.batch_id = b.id
    WHERE b.schedule_id = ${id}::uuid
    GROUP BY b.id
    ORDER BY b.schedule_slot DESC, b.id DESC
    LIMIT ${SCHEDULE_RUNS_SHOWN}`,
  );
  return {
    ...toScheduleOut(schedule),
    runs: runs.map(({ n, u, k, ...r }) => ({
      ...r,
      changes: n === null ? null : { new: n, updated: u ?? 0, unchanged: k ?? 0 },
    })),
  };
}

/** Pauses (no slot runs) or resumes (the next slot after now; missed slots are not run). */
export async function setScheduleStatus(
  ctx: ServiceContext<ReviewActor>,
  input: { schedule_id: string; status: "active" | "paused" },
): Promise<TScheduleOut> {
  const { status } = input;
  const schedule = await getScheduleRow(ctx, input.schedule_id);
  const now = ctx.now();
  const nextRunAt = status === "active" && schedule.status === "paused" ? nextSlot(schedule, now) : schedule.nextRunAt;
  const updated = await ctx.db.schedule.update({
    where: { id: schedule.id },
    data: { status, nextRunAt, ...(status === "active" ? { lastError: null } : {}) },
  });
  return toScheduleOut(updated);
}

/** Whether each slot's batch is analysed once it ends (docs/review-engine.md, "Alerts"). */
export async function setScheduleAnalysis(
  ctx: ServiceContext<ReviewActor>,
  input: { schedule_id: string; analyse_after_run: boolean },
): Promise<TScheduleOut> {
  const schedule = await getScheduleRow(ctx, input.schedule_id);
  const updated = await ctx.db.schedule.update({
    where: { id: schedule.id },
    data: { analyseAfterRun: input.analyse_after_run },
  });
  return toScheduleOut(updated);
}

/** Deletes a schedule; its runs stay as batches (no longer tagged). */
export async function deleteSchedule(
  ctx: ServiceContext<ReviewActor>,
  input: { schedule_id: string },
): Promise<{ id: string; deleted: true }> {
  const schedule = await getScheduleRow(ctx, input.schedule_id);
  await ctx.db.schedule.delete({ where: { id: schedule.id } });
  return { id: schedule.id, deleted: true };
}

/**
 * Every version of a review that the caller's jobs collected, oldest first: the review's history (an
 * edit adds a version; the old one stays). NOT_FOUND when none of the caller's jobs collected it.
 */
export async function reviewHistory(
  ctx: ServiceContext<ReviewActor>,
  input: { review_id: string },
): Promise<z.output<typeof ZReviewHistoryOut>> {
  const reviewId = input.review_id;
  const key = ownedBy(ctx.actor).apiKeyId ?? null;
  const rows = await sqlRows<
    { external_id: string; place_key: string } & z.output<typeof ZReviewHistoryOut>["versions"][number]
  >(
    ctx.db,
    Prisma.sql`
    WITH target AS (SELECT platform, origin, place_key, external_id FROM reviews WHERE id = ${reviewId}::uuid)
    SELECT m.id::text AS id, m.external_id, m.place_key, m.author, m.rating, m.text, m.owner_reply, m.edited_at, m.collected_at AS first_collected_at, m.last_seen_at
    FROM target t JOIN reviews m USING (platform, origin, place_key, external_id)
    -- Only versions the caller's jobs collected (an administrator: all).
    WHERE EXISTS (SELECT 1 FROM job_reviews jr JOIN jobs j ON j.id = jr.job_id WHERE jr.review_id = m.id AND (${key}::uuid IS NULL OR j.api_key_id = ${key}::uuid))
    ORDER BY m.collected_at, m.id`,
  );
  if (rows.length === 0) throw new AppError("NOT_FOUND", "review_not_found");
  const first = rows[0] as (typeof rows)[number];
  return {
    external_id: first.external_id,
    place_key: first.place_key,
    versions: rows.map(({ external_id: _e, place_key: _p, ...v }) => v),
  };
}
