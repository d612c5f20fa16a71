import { z } from "zod";
import { executePipeline, getExecution, getSynthesis, getWidgetData, listExecutions, rerunExecution } from "@/server/services/pipelines/executions";
import { getDashboard, getPipeline, listPipelines } from "@/server/services/pipelines/pipelines";
import { executionQueue } from "@/server/services/pipelines/queue-config";
import {
  ZExecuteInput,
  ZExecutionInput,
  ZListExecutionsInput,
  ZPipelineIdInput,
  ZSynthesisInput,
  ZWidgetInput,
} from "@/server/services/pipelines/schemas";
import * as out from "../pipeline-outputs";
import { apiKeyOrSessionProcedure } from "../engine-procedure";
import { createTRPCRouter } from "../trpc";

const rest = (method: "GET" | "POST", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["pipelines"], protect: true },
});

/**
 * The auth rule of the pipeline procedures (docs/pipelines.md): an API key with `jobs:read` to read and
 * `jobs:write` to execute or re-run (as for jobs), or any signed-in user from the pages.
 */
const reads = apiKeyOrSessionProcedure("jobs:read", "user");
const runs = apiKeyOrSessionProcedure("jobs:write", "user");

/** Analysis pipelines and their executions (Document 1), for the pages and REST. */
export const pipelinesRouter = createTRPCRouter({
  list: reads
    .meta(rest("GET", "/pipelines", "Registered pipelines"))
    .input(z.void())
    .output(out.ZPipelineListOut)
    .query(({ ctx }) => listPipelines(ctx.db, ctx.actor)),
  get: reads
    .meta(rest("GET", "/pipelines/{pipeline_id}", "Pipeline details with the run-request schema"))
    .input(ZPipelineIdInput)
    .output(out.ZPipelineOut)
    .query(({ ctx, input }) => getPipeline(ctx.db, ctx.actor, input)),
  execute: runs
    .meta(rest("POST", "/pipelines/{pipeline_id}/execute", "Queue an execution; body { input: run request }"))
    .input(ZExecuteInput)
    .output(out.ZExecutionOut)
    .mutation(({ ctx, input }) => executePipeline({ db: ctx.db, queue: executionQueue() }, ctx.actor, input)),
  dashboard: reads
    .meta(rest("GET", "/pipelines/{pipeline_id}/dashboard", "Dashboard configuration (widget definitions)"))
    .input(ZPipelineIdInput)
    .output(out.ZDashboardOut)
    .query(({ ctx, input }) => getDashboard(ctx.actor, input)),
  widget: reads
    .meta(rest("GET", "/pipelines/{pipeline_id}/widgets/{widget_id}", "Data of one widget (newest succeeded execution, or ?execution_id=)"))
    .input(ZWidgetInput)
    .output(out.ZWidgetDataOut)
    .query(({ ctx, input }) => getWidgetData(ctx.db, ctx.actor, input)),
  executions: reads
    .meta(rest("GET", "/pipelines/{pipeline_id}/executions", "Execution history, newest first"))
    .input(ZListExecutionsInput)
    .output(out.ZExecutionPageOut)
    .query(({ ctx, input }) => listExecutions(ctx.db, ctx.actor, input)),
  execution: reads
    .meta(rest("GET", "/pipelines/{pipeline_id}/executions/{execution_id}", "One execution: status, stage_metrics, total_duration_ms"))
    .input(ZExecutionInput)
    .output(out.ZExecutionDetailOut)
    .query(({ ctx, input }) => getExecution(ctx.db, ctx.actor, input)),
  rerun: runs
    .meta(rest("POST", "/pipelines/{pipeline_id}/executions/{execution_id}/rerun", "Run a failed execution again"))
    .input(ZExecutionInput)
    .output(out.ZExecutionOut)
    .mutation(({ ctx, input }) => rerunExecution({ db: ctx.db, queue: executionQueue() }, ctx.actor, input)),
  synthesis: reads
    .meta(rest("GET", "/pipelines/{pipeline_id}/synthesis", "Synthesis report (v2 or legacy v1) of the newest succeeded execution, or ?execution_id="))
    .input(ZSynthesisInput)
    .output(out.ZSynthesisOut)
    .query(({ ctx, input }) => getSynthesis(ctx.db, ctx.actor, input)),
});
