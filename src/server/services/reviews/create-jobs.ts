import type { z } from "zod";
import { AppError } from "@/server/core/errors";
import { uuidv7 } from "@/server/core/ids";
import type { Job } from "@/generated/prisma/client";
import { Prisma, sqlRows } from "@/server/core/db";
import { isLiteralPrivateHost } from "@/server/core/outbound/address";
import type { Actor } from "../actor";
import type { ServiceContext } from "../context";
import { apiKeyIdOf, type ReviewActor } from "./access";
import { secretAad } from "./callbacks/secrets";
import { withIdempotency } from "./idempotency";
import { toBatchOut, toJobOut } from "./job-output";
import { jobColumns, recordCreated, type Tx } from "./job-states";
import { PLATFORM } from "./registry-admin";
import { activeVersions, invalidateRegistry } from "./registry-cache";
import { routeVersion, type RoutableVersion } from "./routing";
import { refusedTargets, type RefusedTarget } from "./targets";
import type { TBatchOut, TJobOut } from "./job-output.schema";
import type { ZCreateBatchInput, ZCreateJobInput } from "./create-jobs.schema";
import type { ZJobTarget } from "./schemas";

type JobInput = z.output<typeof ZCreateJobInput>;
type BatchInput = z.output<typeof ZCreateBatchInput>;
type Target = z.output<typeof ZJobTarget>;

/**
 * The active versions for routing `targets`; when one names a version or variant the cached registry
 * does not know (registered in another process within the TTL), the registry is read again once.
 */
export async function versionsFor(ctx: ServiceContext<ReviewActor>, targets: Target[]): Promise<RoutableVersion[]> {
  const active = await activeVersions(ctx.db, PLATFORM);
  const known = (t: Target) =>
    active.some(
      (v) =>
        (t.scraper_version === undefined || v.version === t.scraper_version) &&
        (t.scraper_variant === undefined || v.variant === t.scraper_variant),
    );
  if (targets.every(known)) return active;
  invalidateRegistry();
  return activeVersions(ctx.db, PLATFORM);
}

/** 422 callback_url_refused for a callback to a literal private address (unless CALLBACK_ALLOW_PRIVATE). */
export function checkCallback(ctx: ServiceContext<ReviewActor>, url: string | undefined) {
  if (url && !ctx.settings.review.CALLBACK_ALLOW_PRIVATE && isLiteralPrivateHost(new URL(url))) {
    throw new AppError("UNPROCESSABLE", "callback_url_refused", { reason: "private_address" });
  }
}

/** 422 target_not_allowed when a target is not on its routed version's platform origin (targets.ts). */
function checkTargets(refused: RefusedTarget[], batch: boolean) {
  if (refused.length === 0) return;
  const first = refused[0] as RefusedTarget;
  throw new AppError(
    "UNPROCESSABLE",
    "target_not_allowed",
    batch
      ? { jobs: refused.slice(0, 100), refused: refused.length }
      : { reason: first.reason, allowed_origin: first.allowed_origin },
  );
}

function targetColumns(t: Target, v: RoutableVersion) {
  return {
    platform: PLATFORM,
    placeUrl: t.place_url ?? null,
    placeId: t.platform_id ?? null,
    reviewLimit: t.review_limit,
    sort: t.sort,
    sinceDate: t.since ?? null,
    language: t.language ?? null,
    requestedVersion: t.scraper_version ?? null,
    requestedVariant: t.scraper_variant ?? null,
    scraperVersionId: v.id,
    scraperVersion: v.version,
    scraperVariant: v.variant,
    mode: t.mode,
    stopAfterKnown: t.mode === "new_only" ? (t.stop_after_known ?? null) : null,
  };
}

/** An optional Idempotency-Key of the request (only API keys can use one). */
export type IdemKey = string | undefined;

const idem = (actor: Actor, key: IdemKey, operation: string, input: unknown) =>
  key && actor.kind === "apiKey" ? { apiKeyId: actor.apiKeyId, key, operation, input } : null;

/**
 * Creates one job, routes it to a scraper version and checks its target is on that version's platform
 * origin (POST /api/scrape, /api/scrape/platform-reviews): the job row (itself the queue entry, due at
 * once) and its first event in one statement.
 */
export async function createJob(
  ctx: ServiceContext<ReviewActor>,
  input: JobInput,
  key?: IdemKey,
): Promise<{ value: TJobOut; replayed: boolean }> {
  const { actor } = ctx;
  const settings = ctx.settings.review;
  checkCallback(ctx, input.callback_url);
  const active = await versionsFor(ctx, [input]);
  return withIdempotency(
    ctx.db,
    idem(actor, key, "scrape.create", input),
    async (tx: Tx) => {
      const version = routeVersion(
        active,
        { version: input.scraper_version, variant: input.scraper_variant },
        ctx.random,
      );
      checkTargets(refusedTargets([input], [version], settings.DEMO_PLATFORM_URL), false);
      const id = uuidv7();
      const t = targetColumns(input, version);
      const rows = await sqlRows<Job>(
        tx,
        Prisma.sql`
        WITH j AS (
          INSERT INTO jobs (id, api_key_id, queue, requester_client_id, requester_source, requester_purpose, priority, callback_url, callback_secret_enc,
            platform, place_url, place_id, review_limit, sort, since_date, language, requested_version, requested_variant,
            scraper_version_id, scraper_version, scraper_variant, mode, stop_after_known, updated_at)
          VALUES (${id}::uuid, ${apiKeyIdOf(actor)}::uuid, ${settings.JOB_QUEUE}, ${input.requester_client_id}, ${input.requester_source ?? null}, ${input.requester_purpose ?? null},
            ${input.priority}::int, ${input.callback_url ?? null},
            ${input.callback_secret ? ctx.sealer.seal(input.callback_secret, secretAad.job(id)) : null},
            ${t.platform}, ${t.placeUrl}, ${t.placeId}, ${t.reviewLimit}::int, ${t.sort}::review_sort, ${t.sinceDate}::timestamptz AT TIME ZONE 'UTC',
            ${t.language}, ${t.requestedVersion}, ${t.requestedVariant}, ${t.scraperVersionId}::uuid, ${t.scraperVersion}, ${t.scraperVariant},
            ${t.mode}::collect_mode, ${t.stopAfterKnown}::int, now())
          RETURNING *
        ), ev AS (
          INSERT INTO job_events (job_id, status, detail) SELECT id, 'queued', '{}'::jsonb FROM j
        )
        SELECT ${jobColumns("j")} FROM j`,
      );
      return toJobOut(rows[0] as Job);
    },
    { atomic: true },
  );
}

/**
 * Creates a batch and its jobs in one transaction (POST /api/scrape/platform-reviews/batch); a target
 * off its routed version's origin refuses the whole batch, naming every such job.
 */
export async function createBatch(
  ctx: ServiceContext<ReviewActor>,
  input: BatchInput,
  key?: IdemKey,
): Promise<{ value: TBatchOut & { job_ids: string[] }; replayed: boolean }> {
  const max = ctx.settings.review.BATCH_MAX_JOBS;
  if (input.jobs.length > max) {
    throw new AppError("UNPROCESSABLE", "batch_too_large", { max, given: input.jobs.length });
  }
  checkCallback(ctx, input.callback_url);
  const active = await versionsFor(ctx, input.jobs);
  return withIdempotency(ctx.db, idem(ctx.actor, key, "scrape.batch", input), (tx: Tx) =>
    insertBatch(ctx, tx, input, active),
  );
}

/** Routes each target of a batch and checks it is on its version's platform origin (422 target_not_allowed naming each job). */
export async function routeBatchTargets(
  ctx: ServiceContext<ReviewActor>,
  targets: Target[],
  active?: RoutableVersion[],
): Promise<RoutableVersion[]> {
  const versions = active ?? (await versionsFor(ctx, targets));
  const routed = targets.map((t) =>
    routeVersion(versions, { version: t.scraper_version, variant: t.scraper_variant }, ctx.random),
  );
  checkTargets(refusedTargets(targets, routed, ctx.settings.review.DEMO_PLATFORM_URL), true);
  return routed;
}

/**
 * Writes a batch and its jobs in the caller's transaction, owned by the context's actor; a schedule's
 * run names its schedule and slot (unique together: a slot makes one batch, however many workers reach it).
 */
export async function insertBatch(
  ctx: ServiceContext<ReviewActor>,
  tx: Tx,
  input: BatchInput,
  active: RoutableVersion[],
  run?: { scheduleId: string; slot: Date },
): Promise<TBatchOut & { job_ids: string[] }> {
  const versions = await routeBatchTargets(ctx, input.jobs, active);
  const batchId = uuidv7();
  const apiKeyId = apiKeyIdOf(ctx.actor);
  const batch = await tx.batch.create({
    data: {
      id: batchId,
      apiKeyId,
      name: input.name ?? null,
      requesterClientId: input.requester_client_id,
      requesterSource: input.requester_source ?? null,
      requesterPurpose: input.requester_purpose ?? null,
      priority: input.priority,
      totalJobs: input.jobs.length,
      queuedJobs: input.jobs.length,
      callbackUrl: input.callback_url ?? null,
      callbackSecretEnc: input.callback_secret
        ? ctx.sealer.seal(input.callback_secret, secretAad.batch(batchId))
        : null,
      ...(run ? { scheduleId: run.scheduleId, scheduleSlot: run.slot } : {}),
    },
  });
  const now = Date.now();
  const ids = input.jobs.map((_, i) => uuidv7(now + i));
  await tx.job.createMany({
    data: input.jobs.map((t, i) => ({
      id: ids[i] as string,
      apiKeyId,
      queue: ctx.settings.review.JOB_QUEUE,
      requesterClientId: input.requester_client_id,
      requesterSource: input.requester_source ?? null,
      requesterPurpose: input.requester_purpose ?? null,
      batchId,
      batchIndex: i,
      priority: input.priority,
      ...targetColumns(t, versions[i] as RoutableVersion),
    })),
  });
  await recordCreated(tx, ids);
  return { ...toBatchOut(batch), job_ids: ids };
}
