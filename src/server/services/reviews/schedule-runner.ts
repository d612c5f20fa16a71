import { Prisma, sqlRows } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { Schedule } from "@/generated/prisma/client";
import type { SystemActor } from "../actor";
import { withActor, type ServiceContext } from "../context";
import type { ReviewActor } from "./access";
import { scopeFromDb } from "./api-keys";
import { insertBatch, versionsFor } from "./create-jobs";
import { nextSlot, scheduleAad } from "./schedules";
import { ZCreateBatchInput } from "./create-jobs.schema";

// The workers' side of the schedules (docs/review-engine.md, "Monitoring"). A due schedule is taken
// with FOR UPDATE SKIP LOCKED in a transaction that also writes its run's batch (tagged with the
// schedule and the slot, unique together) and moves it to its next slot: a slot runs once, however
// many workers look, and a worker that dies mid-way rolls everything back for another to take. A
// worker that was down for several slots runs the latest once, not every missed one.

/** What a taken slot became: a batch, or the reason it made none (the schedule is then paused or skips the slot). */
export interface ScheduleRun {
  scheduleId: string;
  slot: Date;
  batchId: string | null;
  error: string | null;
}

/** Whether any schedule is due: one cheap indexed read before a transaction is opened. */
async function anyDue(ctx: ServiceContext<SystemActor>): Promise<boolean> {
  const rows = await sqlRows<{ one: number }>(
    ctx.db,
    Prisma.sql`SELECT 1 AS one FROM schedules WHERE queue = ${ctx.settings.review.JOB_QUEUE} AND status = 'active' AND next_run_at <= now() AT TIME ZONE 'UTC' LIMIT 1`,
  );
  return rows.length > 0;
}

/** The actor a run acts as: the schedule's API key, or the system for an administrator's schedule. */
async function actorOf(ctx: ServiceContext<SystemActor>, s: Schedule, now: Date): Promise<ReviewActor | string> {
  if (!s.apiKeyId) return { kind: "system" };
  const key = await ctx.db.apiKey.findUnique({
    where: { id: s.apiKeyId },
    select: { scopes: true, revokedAt: true, expiresAt: true },
  });
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= now)) return "api_key_revoked";
  if (!key.scopes.includes("jobs_write") && !key.scopes.includes("admin")) return "api_key_cannot_write";
  return { kind: "apiKey", apiKeyId: s.apiKeyId, scopes: key.scopes.map(scopeFromDb) };
}

/** Takes one due schedule and runs its slot; null when none is due (or all are held by other workers). */
async function runOne(ctx: ServiceContext<SystemActor>): Promise<ScheduleRun | null> {
  return ctx.db.$transaction(
    async (tx) => {
      const taken = await tx.$queryRaw<{ id: string }[]>`
        SELECT id::text FROM schedules WHERE queue = ${ctx.settings.review.JOB_QUEUE} AND status = 'active' AND next_run_at <= now() AT TIME ZONE 'UTC'
        ORDER BY next_run_at LIMIT 1 FOR UPDATE SKIP LOCKED`;
      if (!taken[0]) return null;
      const s = await tx.schedule.findUniqueOrThrow({ where: { id: taken[0].id } });
      const now = ctx.now();
      const slot = s.nextRunAt;
      const actor = await actorOf(ctx, s, now);
      let batchId: string | null = null;
      let error: string | null = typeof actor === "string" ? actor : null;
      if (typeof actor !== "string") {
        const parsed = ZCreateBatchInput.safeParse({
          name: s.name ?? undefined,
          requester_client_id: s.requesterClientId,
          requester_source: "schedule",
          priority: s.priority,
          callback_url: s.callbackUrl ?? undefined,
          callback_secret: s.callbackSecretEnc
            ? ctx.sealer.open(s.callbackSecretEnc, scheduleAad(s.id)).toString("utf8")
            : undefined,
          jobs: (s.targets as Record<string, unknown>[]).map((t) => ({
            ...t,
            mode: s.mode,
            stop_after_known: s.stopAfterKnown,
          })),
        });
        if (!parsed.success) error = "targets_invalid";
        else {
          try {
            const as = withActor(ctx, actor);
            const active = await versionsFor(as, parsed.data.jobs);
            batchId = (await insertBatch(as, tx, parsed.data, active, { scheduleId: s.id, slot })).id;
          } catch (e) {
            // Refused before anything was written (routing and target checks come first).
            if (!(e instanceof AppError)) throw e;
            error = e.message;
          }
        }
      }
      // A key that can no longer run it pauses the schedule; a refused target skips this slot only.
      const pause = error === "api_key_revoked" || error === "api_key_cannot_write";
      await tx.schedule.update({
        where: { id: s.id },
        data: {
          nextRunAt: nextSlot(s, now),
          lastError: error,
          ...(pause ? { status: "paused" } : {}),
          ...(batchId ? { lastRunAt: now, runCount: { increment: 1 } } : {}),
        },
      });
      return { scheduleId: s.id, slot, batchId, error };
    },
    { timeout: 60_000 },
  );
}

/** Runs up to `max` due slots, one transaction each; the worker's schedule slot calls it every poll. */
export async function runDueSchedules(
  ctx: ServiceContext<SystemActor>,
  input: { max: number },
): Promise<ScheduleRun[]> {
  const { max } = input;
  const runs: ScheduleRun[] = [];
  if (max <= 0 || !(await anyDue(ctx))) return runs;
  for (let i = 0; i < max; i++) {
    const run = await runOne(ctx);
    if (!run) break;
    runs.push(run);
  }
  return runs;
}
