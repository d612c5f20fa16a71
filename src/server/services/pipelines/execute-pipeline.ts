import type { Db } from "@/server/core/db";
import { Prisma } from "@/server/core/db";
import { AppError, validationIssues } from "@/server/core/errors";
import { pendingMetrics } from "@/server/pipelines/engine";
import type { ExecutionQueue } from "@/server/pipelines/queue";
import { syncRegistry } from "@/server/pipelines/registry";
import { activeExecutionsLock, lockStatement } from "@/server/core/locks";
import type { PipelineDefinition } from "@/server/pipelines/types";
import type { Actor } from "@/server/services/actor";
import { assertPipelineAccess, principalOf, readScopeOf, visibleExecutions } from "./access";
import { pipelineOrThrow } from "./pipelines";
import { ZExecuteInput, ZExecutionInput, type TExecuteInput, type TExecutionInput } from "./schemas";
import { EXECUTION_SELECT, parsed, toExecutionOut } from "./serialize";

export interface ExecuteDeps {
  db: Db;
  queue: ExecutionQueue;
  /** Executions queued or running at once per principal (PIPELINE_MAX_ACTIVE_PER_PRINCIPAL). */
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
async function insertWithinLimit(deps: ExecuteDeps, actor: Actor, data: Prisma.PipelineExecutionUncheckedCreateInput) {
  const principal = principalOf(actor);
  if (!principal) return deps.db.pipelineExecution.create({ data, select: EXECUTION_SELECT });
  return deps.db.$transaction(async (tx) => {
    const lock = lockStatement("pg_advisory_xact_lock", activeExecutionsLock(principal.key));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    const active = await tx.pipelineExecution.count({
      where: { ...principal.where, status: { in: ["queued", "running"] } },
    });
    if (active >= deps.maxActivePerPrincipal) {
      throw new AppError("TOO_MANY_REQUESTS", "too_many_active_executions", { limit: deps.maxActivePerPrincipal });
    }
    return tx.pipelineExecution.create({ data, select: EXECUTION_SELECT });
  });
}

/** Creates the queued row (within the limit) and hands it to the queue; a queue failure marks the row failed. */
async function createAndQueue(deps: ExecuteDeps, actor: Actor, data: Prisma.PipelineExecutionUncheckedCreateInput) {
  const row = await insertWithinLimit(deps, actor, data);
  try {
    await deps.queue.enqueueExecution(row.id);
  } catch {
    await deps.db.pipelineExecution.update({
      where: { id: row.id },
      data: { status: "failed", failedStage: "queue", error: "queue_unavailable", finishedAt: new Date() },
    });
    throw new AppError("SERVICE_UNAVAILABLE", "queue_unavailable");
  }
  return toExecutionOut(row);
}

/** POST /api/pipelines/{pipeline_id}/execute: validates and authorizes the run request, then queues a run. */
export async function executePipeline(deps: ExecuteDeps, actor: Actor, raw: TExecuteInput) {
  assertPipelineAccess(actor, "execute");
  const { pipeline_id, input } = ZExecuteInput.parse(raw);
  const def = pipelineOrThrow(pipeline_id);
  const owned = await ownedRun(deps.db, def, actor, parseRunRequest(def, input));
  await syncRegistry(deps.db);
  return createAndQueue(deps, actor, {
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
export async function rerunExecution(deps: ExecuteDeps, actor: Actor, raw: TExecutionInput) {
  assertPipelineAccess(actor, "execute");
  const { pipeline_id, execution_id } = ZExecutionInput.parse(raw);
  const def = pipelineOrThrow(pipeline_id);
  const previous = await deps.db.pipelineExecution.findFirst({
    where: { id: execution_id, pipelineId: def.id, ...visibleExecutions(actor) },
    select: { id: true, status: true, input: true, attempt: true },
  });
  if (!previous) throw new AppError("NOT_FOUND", "execution_not_found");
  if (previous.status !== "failed") throw new AppError("CONFLICT", "execution_not_failed", { status: previous.status });
  const owned = await ownedRun(deps.db, def, actor, parseRunRequest(def, parsed(previous.input)));
  return createAndQueue(deps, actor, {
    pipelineId: def.id,
    pipelineVersion: def.version,
    stageMetrics: pendingMetrics(def) as unknown as Prisma.InputJsonValue,
    attempt: previous.attempt + 1,
    retryOfId: previous.id,
    ...owned,
  });
}
