import type { Db, Prisma } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { detectReportFormat } from "@/server/pipelines/review-analytics/synthesis/report";
import type { Actor } from "@/server/services/actor";
import { assertPipelineAccess, ownExecutions, visibleExecutions } from "./access";
import { pipelineOrThrow } from "./pipelines";
import type { ServiceContext } from "@/server/services/context";
import type { TSelectionInput, TSynthesisInput, TWidgetInput } from "./schemas";
import { parsed, placesOf } from "./serialize";

// What the dashboard, the widgets and the report show: one execution the caller can see.

const NEWEST = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.PipelineExecutionOrderByWithRelationInput[];

/** A run worth showing by default: succeeded, with reviews (null: a run older than review counts). */
const SHOWABLE: Prisma.PipelineExecutionWhereInput = {
  status: "succeeded",
  OR: [{ reviewCount: { gt: 0 } }, { reviewCount: null }],
};

const VIEW_SELECT = {
  id: true,
  status: true,
  input: true,
  reviewCount: true,
  places: true,
  queuedAt: true,
  finishedAt: true,
} as const;

/**
 * The chosen execution when it is one the caller can see (404 execution_not_found otherwise, also
 * for another caller's), else the default: the caller's own newest showable run, then (for
 * administrators, who see every run) the newest showable run they can see. A run with no reviews is
 * never the default, so it cannot replace a full dashboard. Null when there is none.
 */
async function chooseExecution<S extends Prisma.PipelineExecutionSelect>(
  db: Db,
  actor: Actor,
  pipelineId: string,
  executionId: string | undefined,
  select: S,
) {
  const visible = { pipelineId, ...visibleExecutions(actor) };
  if (executionId) {
    const row = await db.pipelineExecution.findFirst({ where: { id: executionId, ...visible }, select });
    if (!row) throw new AppError("NOT_FOUND", "execution_not_found");
    return row;
  }
  const own = ownExecutions(actor);
  const mine = own
    ? await db.pipelineExecution.findFirst({ where: { AND: [visible, SHOWABLE, own] }, orderBy: NEWEST, select })
    : null;
  return mine ?? db.pipelineExecution.findFirst({ where: { AND: [visible, SHOWABLE] }, orderBy: NEWEST, select });
}

/** The chosen or default execution; NOT_FOUND no_succeeded_execution when the caller has none. */
async function pickExecution(db: Db, actor: Actor, pipelineId: string, executionId: string | undefined) {
  const row = await chooseExecution(db, actor, pipelineId, executionId, {
    ...VIEW_SELECT,
    result: true,
    synthesis: true,
  });
  if (!row) throw new AppError("NOT_FOUND", "no_succeeded_execution");
  return row;
}

/** GET /api/pipelines/{pipeline_id}/widgets/{widget_id}: one widget's data from the default (or a chosen) execution. */
export async function getWidgetData({ db, actor }: ServiceContext, input: TWidgetInput) {
  assertPipelineAccess(actor, "read");
  const def = pipelineOrThrow(input.pipeline_id);
  const widget = def.dashboard.find((w) => w.id === input.widget_id);
  if (!widget) throw new AppError("NOT_FOUND", "widget_not_found");
  const row = await pickExecution(db, actor, def.id, input.execution_id);
  const stored = parsed(row.result);
  const result = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : null;
  let data = null;
  if (row.status === "succeeded" && row.reviewCount !== 0 && result) {
    try {
      data = def.widgetData(widget.id, result);
    } catch {
      data = null; // a result stored by an older version without this widget's fields
    }
  }
  const state: "ready" | "no_reviews" | "no_result" =
    row.reviewCount === 0 ? "no_reviews" : data ? "ready" : "no_result";
  return {
    pipeline_id: def.id,
    widget_id: widget.id,
    kind: widget.kind,
    execution_id: row.id,
    execution_status: row.status,
    state,
    review_count: row.reviewCount,
    data,
  };
}

/**
 * GET .../synthesis: the stored report of an execution (v2 or legacy v1) with its detected format; a
 * run that found no reviews answers state `no_reviews` without a report.
 */
export async function getSynthesis({ db, actor }: ServiceContext, input: TSynthesisInput) {
  assertPipelineAccess(actor, "read");
  const def = pipelineOrThrow(input.pipeline_id);
  const row = await pickExecution(db, actor, def.id, input.execution_id);
  const head = {
    pipeline_id: def.id,
    execution_id: row.id,
    finished_at: row.finishedAt,
    review_count: row.reviewCount,
    places: placesOf(row),
  };
  if (row.status === "succeeded" && row.reviewCount === 0)
    return { ...head, state: "no_reviews" as const, format: null, report: null };
  const report = parsed(row.synthesis);
  if (report === null || typeof report !== "object" || Array.isArray(report))
    throw new AppError("NOT_FOUND", "synthesis_not_found", { status: row.status });
  return {
    ...head,
    state: "ready" as const,
    format: detectReportFormat(report),
    report: report as Record<string, unknown>,
  };
}

/** How many runs the pickers of the pages offer (the newest; a chosen older one is added). */
const CHOICES = 100;

const choiceOf = (row: {
  id: string;
  status: "queued" | "running" | "succeeded" | "failed";
  input: unknown;
  reviewCount: number | null;
  places: unknown;
  queuedAt: Date;
  finishedAt: Date | null;
}) => ({
  id: row.id,
  status: row.status,
  queued_at: row.queuedAt,
  finished_at: row.finishedAt,
  review_count: row.reviewCount,
  places: placesOf(row),
});

/**
 * What the dashboard and the report pages show and offer (tRPC only): the chosen or default
 * execution, and the caller's showable runs, newest first, to pick another one by place and date.
 */
export async function getExecutionSelection({ db, actor }: ServiceContext, input: TSelectionInput) {
  assertPipelineAccess(actor, "read");
  const def = pipelineOrThrow(input.pipeline_id);
  const current = await chooseExecution(db, actor, def.id, input.execution_id, VIEW_SELECT);
  const rows = await db.pipelineExecution.findMany({
    where: { AND: [{ pipelineId: def.id, ...visibleExecutions(actor) }, SHOWABLE] },
    orderBy: NEWEST,
    take: CHOICES,
    select: VIEW_SELECT,
  });
  const choices = rows.map(choiceOf);
  if (current && !choices.some((c) => c.id === current.id)) choices.push(choiceOf(current));
  return { pipeline_id: def.id, current: current ? choiceOf(current) : null, choices };
}
