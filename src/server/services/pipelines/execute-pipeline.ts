import type { Db } from "@/server/core/db";
import { Prisma } from "@/server/core/db";
import { AppError, validationIssues } from "@/server/core/errors";
import { pendingMetrics } from "@/server/pipelines/engine";
import { syncRegistry } from "@/server/pipelines/registry";
import { activeExecutionsLock, lockStatement } from "@/server/core/locks";
import type { PipelineDefinition } from "@/server/pipelines/types";
import type { Actor } from "@/server/services/actor";
import type { ServiceContext } from "@/server/services/context";
import { assertPipelineAccess, principalOf, readScopeOf, visibleExecutions } from "./access";
import { pipelineOrThrow } from "./pipelines";
import type { TExecuteInput, TExecutionInput } from "./schemas";
import { EXECUTION_SELECT, parsed, toExecutionOut } from "./serialize";

/** The limits a run request is held to (the web app's PIPELINE_MAX_ACTIVE_PER_PRINCIPAL). */
export interface ExecutionLimits {
  /** Executions queued or running at once per principal. */
  maxActivePerPrincipal: number;
}

const actorColumns = (actor: Actor) => ({
  triggeredByUserId: actor.kind === "user" ? actor.userId : null,
  triggeredByApiKeyId: actor.kind === "apiKey" ? actor.apiKeyId : null,
});

/** The run request validated by the pipeline's own schema (400 invalid_run_request with the issues). */
function parseRunRequest(def: PipelineDefinition, input: unknown): unknown {
  const parsed = def.inputSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError("BAD_REQUEST", "invalid_run_request", {
      issues: validationIssues(parsed.error.issues),
    });
  }
  return parsed.data;
}

/**
 * The columns that tie a run to its caller: who triggered it and whose data it may read, after the
 * pipeline checked that the input names only data of that scope (404 as for absent data otherwise).
 */
async function ownedRun(db: Db, def: PipelineDefinition, actor: Actor, input: unknown) {
  const readScopeApiKeyId = readScopeOf(actor);
  await def.authorizeInput?.(input, { db, readScopeApiKeyId });
  return { input: input as Prisma.InputJsonValue, readScopeApiKeyId, ...actorColumns(actor) };
}

/**
 * Inserts the queued row unless the principal already has `max` executions queued or running (429
 * too_many_active_executions). The count and the insert run under a transaction-scoped advisory lock
 * of the principal, so two requests racing at the limit cannot both pass it.
 */
async function insertWithinLimit(
  db: Db,
  actor: Actor,
  limits: ExecutionLimits,
  data: Prisma.PipelineExecutionUncheckedCreateInput,
) {
  const principal = principalOf(actor);
  if (!principal) return db.pipelineExecution.create({ data, select: EXECUTION_SELECT });
  return db.$transaction(async (tx) => {
    const lock = lockStatement("pg_advisory_xact_lock", activeExecutionsLock(principal.key));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    const active = await tx.pipelineExecution.count({
      where: { ...principal.where, status: { in: ["queued", "running"] } },
    });
    if (active >= limits.maxActivePerPrincipal) {
      throw new AppError("TOO_MANY_REQUESTS", "too_many_active_executions", { limit: limits.maxActivePerPrincipal });
    }
    return tx.pipelineExecution.create({ data, select: EXECUTION_SELECT });
  });
}

/**
 * Creates the queued row within the limit: the row is the queue's (docs/pipelines.md, "Queue"), on the
 * process's work queue (JOB_QUEUE), so inserting it queues the run for a worker of that queue.
 */
async function createQueued(
  ctx: ServiceContext,
  limits: ExecutionLimits,
  data: Omit<Prisma.PipelineExecutionUncheckedCreateInput, "queue">,
) {
  const row = await insertWithinLimit(ctx.db, ctx.actor, limits, { ...data, queue: ctx.settings.review.JOB_QUEUE });
  return toExecutionOut(row);
}

/** POST /api/pipelines/{pipeline_id}/execute: validates and authorizes the run request, then queues a run. */
export async function executePipeline(ctx: ServiceContext, input: TExecuteInput, limits: ExecutionLimits) {
  const { db, actor } = ctx;
  assertPipelineAccess(actor, "execute");
  const def = pipelineOrThrow(input.pipeline_id);
  const owned = await ownedRun(db, def, actor, parseRunRequest(def, input.input));
  await syncRegistry(db);
  return createQueued(ctx, limits, {
    pipelineId: def.id,
    pipelineVersion: def.version,
    stageMetrics: pendingMetrics(def) as unknown as Prisma.InputJsonValue,
    ...owned,
  });
}

/**
 * POST .../executions/{execution_id}/rerun: runs a failed execution the caller can see again, as a new
 * attempt with the same input. The read scope is the re-running caller's, and the input is checked
 * against it again (the data it names may not be the re-running caller's to read).
 */
export async function rerunExecution(ctx: ServiceContext, input: TExecutionInput, limits: ExecutionLimits) {
  const { db, actor } = ctx;
  assertPipelineAccess(actor, "execute");
  const { pipeline_id, execution_id } = input;
  const def = pipelineOrThrow(pipeline_id);
  const previous = await db.pipelineExecution.findFirst({
    where: { id: execution_id, pipelineId: def.id, ...visibleExecutions(actor) },
    select: { id: true, status: true, input: true, attempt: true },
  });
  if (!previous) throw new AppError("NOT_FOUND", "execution_not_found");
  if (previous.status !== "failed") throw new AppError("CONFLICT", "execution_not_failed", { status: previous.status });
  const owned = await ownedRun(db, def, actor, parseRunRequest(def, parsed(previous.input)));
  return createQueued(ctx, limits, {
    pipelineId: def.id,
    pipelineVersion: def.version,
    stageMetrics: pendingMetrics(def) as unknown as Prisma.InputJsonValue,
    attempt: previous.attempt + 1,
    retryOfId: previous.id,
    ...owned,
  });
}
