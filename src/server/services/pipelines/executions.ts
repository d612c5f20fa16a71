import { Prisma } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { detectReportFormat } from "@/server/pipelines/review-analytics/synthesis/report";
import type { ServiceContext } from "@/server/services/context";
import { readPage } from "@/server/services/paging";
import { assertPipelineAccess, visibleExecutions } from "./access";
import { pipelineOrThrow } from "./pipelines";
import type { TExecutionInput, TListExecutionsInput } from "./schemas";
import { EXECUTION_SELECT, parsed, toExecutionOut } from "./serialize";

/** GET /api/pipelines/{pipeline_id}/executions: the caller's visible history, newest first, paginated. */
export async function listExecutions({ db, actor }: ServiceContext, input: TListExecutionsInput) {
  assertPipelineAccess(actor, "read");
  const def = pipelineOrThrow(input.pipeline_id);
  const where = { pipelineId: def.id, ...visibleExecutions(actor), ...(input.status ? { status: input.status } : {}) };
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

/** GET .../executions/{execution_id}: one visible execution with parsed stage_metrics; another caller's is 404. */
export async function getExecution({ db, actor }: ServiceContext, input: TExecutionInput) {
  assertPipelineAccess(actor, "read");
  const { pipeline_id, execution_id } = input;
  const row = await db.pipelineExecution.findFirst({
    where: { id: execution_id, pipelineId: pipeline_id, ...visibleExecutions(actor) },
    select: { ...EXECUTION_SELECT, synthesis: true },
  });
  if (!row) throw new AppError("NOT_FOUND", "execution_not_found");
  const synthesis = parsed(row.synthesis);
  return { ...toExecutionOut(row), synthesis_format: synthesis === null ? null : detectReportFormat(synthesis) };
}
