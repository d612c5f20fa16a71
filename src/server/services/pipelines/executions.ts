import type { Db } from "@/server/core/db";
import { Prisma } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { pendingMetrics } from "@/server/pipelines/engine";
import { detectReportFormat } from "@/server/pipelines/review-analytics/synthesis/report";
import { syncRegistry } from "@/server/pipelines/registry";
import type { ExecutionQueue } from "@/server/pipelines/queue";
import type { Actor } from "@/server/services/actor";
import { readPage } from "@/server/services/paging";
import { assertPipelineAccess } from "./access";
import { pipelineOrThrow } from "./pipelines";
import {
  ZExecuteInput,
  ZExecutionInput,
  ZListExecutionsInput,
  ZSynthesisInput,
  ZWidgetInput,
  type TExecuteInput,
  type TExecutionInput,
  type TListExecutionsInput,
  type TSynthesisInput,
  type TWidgetInput,
} from "./schemas";
import { EXECUTION_SELECT, parsed, toExecutionOut } from "./serialize";

export interface ExecuteDeps {
  db: Db;
  queue: ExecutionQueue;
}

const actorColumns = (actor: Actor) => ({
  triggeredByUserId: actor.kind === "user" ? actor.userId : null,
  triggeredByApiKeyId: actor.kind === "apiKey" ? actor.apiKeyId : null,
});

/** Creates the queued row and hands it to the queue; a queue failure marks the row failed. */
async function createAndQueue(deps: ExecuteDeps, data: Prisma.PipelineExecutionUncheckedCreateInput) {
  const row = await deps.db.pipelineExecution.create({ data, select: EXECUTION_SELECT });
  try {
    await deps.queue.enqueueExecution(row.id);
  } catch {
    await deps.db.pipelineExecution.update({ where: { id: row.id }, data: { status: "failed", failedStage: "queue", error: "queue_unavailable", finishedAt: new Date() } });
    throw new AppError("SERVICE_UNAVAILABLE", "queue_unavailable");
  }
  return toExecutionOut(row);
}

/** POST /api/pipelines/{pipeline_id}/execute: validates the run request with the pipeline's schema and queues a run. */
export async function executePipeline(deps: ExecuteDeps, actor: Actor, raw: TExecuteInput) {
  assertPipelineAccess(actor, "execute");
  const { pipeline_id, input } = ZExecuteInput.parse(raw);
  const def = pipelineOrThrow(pipeline_id);
  const parsed = def.inputSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError("BAD_REQUEST", "invalid_run_request", {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  await syncRegistry(deps.db);
  return createAndQueue(deps, {
    pipelineId: def.id,
    pipelineVersion: def.version,
    input: parsed.data as Prisma.InputJsonValue,
    stageMetrics: pendingMetrics(def) as unknown as Prisma.InputJsonValue,
    ...actorColumns(actor),
  });
}

/** POST .../executions/{execution_id}/rerun: runs a failed execution again as a new attempt with the same input. */
export async function rerunExecution(deps: ExecuteDeps, actor: Actor, raw: TExecutionInput) {
  assertPipelineAccess(actor, "execute");
  const { pipeline_id, execution_id } = ZExecutionInput.parse(raw);
  const def = pipelineOrThrow(pipeline_id);
  const previous = await deps.db.pipelineExecution.findFirst({
    where: { id: execution_id, pipelineId: def.id },
    select: { id: true, status: true, input: true, attempt: true },
  });
  if (!previous) throw new AppError("NOT_FOUND", "execution_not_found");
  if (previous.status !== "failed") throw new AppError("CONFLICT", "execution_not_failed", { status: previous.status });
  return createAndQueue(deps, {
    pipelineId: def.id,
    pipelineVersion: def.version,
    input: previous.input as Prisma.InputJsonValue,
    stageMetrics: pendingMetrics(def) as unknown as Prisma.InputJsonValue,
    attempt: previous.attempt + 1,
    retryOfId: previous.id,
    ...actorColumns(actor),
  });
}

/** GET /api/pipelines/{pipeline_id}/executions: history, newest first, paginated. */
export async function listExecutions(db: Db, actor: Actor, raw: TListExecutionsInput) {
  assertPipelineAccess(actor, "read");
  const input = ZListExecutionsInput.parse(raw);
  const def = pipelineOrThrow(input.pipeline_id);
  const where = { pipelineId: def.id, ...(input.status ? { status: input.status } : {}) };
  const orderBy = {
    newest: [{ createdAt: "desc" }, { id: "desc" }],
    oldest: [{ createdAt: "asc" }, { id: "asc" }],
    slowest: [{ totalDurationMs: { sort: "desc", nulls: "last" } }, { id: "desc" }],
    fastest: [{ totalDurationMs: { sort: "asc", nulls: "last" } }, { id: "desc" }],
  } satisfies Record<typeof input.sort, Prisma.PipelineExecutionOrderByWithRelationInput[]>;
  const page = await readPage(
    input,
    () => db.pipelineExecution.count({ where }),
    (w) => db.pipelineExecution.findMany({ where, orderBy: orderBy[input.sort], select: EXECUTION_SELECT, ...w }),
  );
  return { ...page, items: page.items.map(toExecutionOut) };
}

/** GET .../executions/{execution_id}: one execution with parsed stage_metrics and total_duration_ms. */
export async function getExecution(db: Db, actor: Actor, raw: TExecutionInput) {
  assertPipelineAccess(actor, "read");
  const { pipeline_id, execution_id } = ZExecutionInput.parse(raw);
  const row = await db.pipelineExecution.findFirst({
    where: { id: execution_id, pipelineId: pipeline_id },
    select: { ...EXECUTION_SELECT, synthesis: true },
  });
  if (!row) throw new AppError("NOT_FOUND", "execution_not_found");
  const synthesis = parsed(row.synthesis);
  return { ...toExecutionOut(row), synthesis_format: synthesis === null ? null : detectReportFormat(synthesis) };
}

/** The chosen execution, or the newest succeeded one; NOT_FOUND when there is none. */
async function pickExecution(db: Db, pipelineId: string, executionId: string | undefined) {
  const row = await db.pipelineExecution.findFirst({
    where: { pipelineId, ...(executionId ? { id: executionId } : { status: "succeeded" }) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, status: true, result: true, synthesis: true, finishedAt: true },
  });
  if (!row) throw new AppError("NOT_FOUND", executionId ? "execution_not_found" : "no_succeeded_execution");
  return row;
}

/** GET /api/pipelines/{pipeline_id}/widgets/{widget_id}: one widget's data from the newest (or a chosen) execution. */
export async function getWidgetData(db: Db, actor: Actor, raw: TWidgetInput) {
  assertPipelineAccess(actor, "read");
  const input = ZWidgetInput.parse(raw);
  const def = pipelineOrThrow(input.pipeline_id);
  const widget = def.dashboard.find((w) => w.id === input.widget_id);
  if (!widget) throw new AppError("NOT_FOUND", "widget_not_found");
  const row = await pickExecution(db, def.id, input.execution_id);
  const stored = parsed(row.result);
  const result = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : null;
  let data = null;
  if (row.status === "succeeded" && result) {
    try {
      data = def.widgetData(widget.id, result);
    } catch {
      data = null; // a result stored by an older version without this widget's fields
    }
  }
  return { pipeline_id: def.id, widget_id: widget.id, kind: widget.kind, execution_id: row.id, execution_status: row.status, data };
}

/** GET .../synthesis: the stored report of an execution (v2 or legacy v1) with its detected format. */
export async function getSynthesis(db: Db, actor: Actor, raw: TSynthesisInput) {
  assertPipelineAccess(actor, "read");
  const input = ZSynthesisInput.parse(raw);
  const def = pipelineOrThrow(input.pipeline_id);
  const row = await pickExecution(db, def.id, input.execution_id);
  const report = parsed(row.synthesis);
  if (report === null || typeof report !== "object" || Array.isArray(report)) throw new AppError("NOT_FOUND", "synthesis_not_found", { status: row.status });
  return { pipeline_id: def.id, execution_id: row.id, finished_at: row.finishedAt, format: detectReportFormat(report), report: report as Record<string, unknown> };
}
