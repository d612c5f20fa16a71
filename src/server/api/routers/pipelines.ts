import { z } from "zod";
import { appEnv } from "@/server/env";
import type { Db } from "@/server/core/db";
import type { Actor } from "@/server/services/actor";
import { serviceContext } from "@/server/services/context";
import { executePipeline, rerunExecution, type ExecutionLimits } from "@/server/services/pipelines/execute-pipeline";
import { getExecutionSelection, getSynthesis, getWidgetData } from "@/server/services/pipelines/execution-views";
import { getEvidence } from "@/server/services/pipelines/evidence";
import { getExecution, listExecutions } from "@/server/services/pipelines/executions";
import { getDashboard, getPipeline, listPipelines } from "@/server/services/pipelines/pipelines";
import {
  approveReplyDraft,
  discardReplyDraft,
  editReplyDraft,
  listReplyDrafts,
  reopenReplyDraft,
} from "@/server/services/pipelines/reply-drafts";
import {
  ZApproveReplyDraftInput,
  ZEditReplyDraftInput,
  ZListReplyDraftsInput,
  ZReplyDraftInput,
  ZReplyDraftOut,
  ZReplyDraftPageOut,
} from "@/server/services/pipelines/reply-drafts.schema";
import {
  ZEvidenceInput,
  ZExecuteInput,
  ZExecutionInput,
  ZListExecutionsInput,
  ZPipelineIdInput,
  ZSelectionInput,
  ZSynthesisInput,
  ZWidgetInput,
} from "@/server/services/pipelines/schemas";
import { apiKeyOrSessionProcedure } from "../engine-procedure";
import { createTRPCRouter } from "../trpc";
import {
  ZDashboardOut,
  ZEvidenceOut,
  ZExecutionDetailOut,
  ZExecutionOut,
  ZExecutionPageOut,
  ZPipelineListOut,
  ZPipelineOut,
  ZSelectionOut,
  ZSynthesisOut,
  ZWidgetDataOut,
} from "../outputs/pipelines";

const rest = (method: "GET" | "POST", path: `/${string}`, summary: string) => ({
  openapi: { method, path, summary, tags: ["pipelines"], protect: true },
});

/**
 * The auth rule of the pipeline procedures (docs/pipelines.md): an API key with `jobs:read` to read and
 * `jobs:write` to execute or re-run (as for jobs), or a signed-in administrator from the pages (as the
 * engine's pages: pipelines read the engine's collected data).
 */
const reads = apiKeyOrSessionProcedure("jobs:read", "admin");
const runs = apiKeyOrSessionProcedure("jobs:write", "admin");

/** The service context of one request: the request's database and actor. */
const svc = (ctx: { db: Db; actor: Actor }) => serviceContext(ctx.actor, { db: ctx.db });

const limits = (): ExecutionLimits => ({ maxActivePerPrincipal: appEnv().PIPELINE_MAX_ACTIVE_PER_PRINCIPAL });

/** Analysis pipelines and their executions (Document 1), for the pages and REST. */
export const pipelinesRouter = createTRPCRouter({
  list: reads
    .meta(rest("GET", "/pipelines", "Registered pipelines"))
    .input(z.void())
    .output(ZPipelineListOut)
    .query(({ ctx }) => listPipelines(svc(ctx))),
  get: reads
    .meta(rest("GET", "/pipelines/{pipeline_id}", "Pipeline details with the run-request schema"))
    .input(ZPipelineIdInput)
    .output(ZPipelineOut)
    .query(({ ctx, input }) => getPipeline(svc(ctx), input)),
  execute: runs
    .meta(rest("POST", "/pipelines/{pipeline_id}/execute", "Queue an execution; body { input: run request }"))
    .input(ZExecuteInput)
    .output(ZExecutionOut)
    .mutation(({ ctx, input }) => executePipeline(svc(ctx), input, limits())),
  dashboard: reads
    .meta(rest("GET", "/pipelines/{pipeline_id}/dashboard", "Dashboard configuration (widget definitions)"))
    .input(ZPipelineIdInput)
    .output(ZDashboardOut)
    .query(({ ctx, input }) => getDashboard(svc(ctx), input)),
  widget: reads
    .meta(
      rest(
        "GET",
        "/pipelines/{pipeline_id}/widgets/{widget_id}",
        "Data of one widget (the caller's default execution, or ?execution_id=)",
      ),
    )
    .input(ZWidgetInput)
    .output(ZWidgetDataOut)
    .query(({ ctx, input }) => getWidgetData(svc(ctx), input)),
  executions: reads
    .meta(rest("GET", "/pipelines/{pipeline_id}/executions", "Execution history, newest first"))
    .input(ZListExecutionsInput)
    .output(ZExecutionPageOut)
    .query(({ ctx, input }) => listExecutions(svc(ctx), input)),
  execution: reads
    .meta(
      rest(
        "GET",
        "/pipelines/{pipeline_id}/executions/{execution_id}",
        "One execution: status, stage_metrics, total_duration_ms",
      ),
    )
    .input(ZExecutionInput)
    .output(ZExecutionDetailOut)
    .query(({ ctx, input }) => getExecution(svc(ctx), input)),
  rerun: runs
    .meta(rest("POST", "/pipelines/{pipeline_id}/executions/{execution_id}/rerun", "Run a failed execution again"))
    .input(ZExecutionInput)
    .output(ZExecutionOut)
    .mutation(({ ctx, input }) => rerunExecution(svc(ctx), input, limits())),
  synthesis: reads
    .meta(
      rest(
        "GET",
        "/pipelines/{pipeline_id}/synthesis",
        "Synthesis report (v2 or legacy v1) of the caller's default execution, or ?execution_id=",
      ),
    )
    .input(ZSynthesisInput)
    .output(ZSynthesisOut)
    .query(({ ctx, input }) => getSynthesis(svc(ctx), input)),
  evidence: reads
    .meta(
      rest(
        "GET",
        "/pipelines/{pipeline_id}/executions/{execution_id}/evidence/{ref}",
        "The reviews behind one figure of the execution's report (a ref of report.evidence), by review id",
      ),
    )
    .input(ZEvidenceInput)
    .output(ZEvidenceOut)
    .query(({ ctx, input }) => getEvidence(svc(ctx), input)),
  // Reply drafts of a run (docs/pipelines.md, "Reply drafts"): read with jobs:read, changed with jobs:write.
  replies: reads
    .meta(
      rest(
        "GET",
        "/pipelines/{pipeline_id}/executions/{execution_id}/replies",
        "Reply drafts of the execution's reviews that need an answer, paged, optionally of one state",
      ),
    )
    .input(ZListReplyDraftsInput)
    .output(ZReplyDraftPageOut)
    .query(({ ctx, input }) => listReplyDrafts(svc(ctx), input)),
  editReply: runs
    .meta(
      rest(
        "POST",
        "/pipelines/{pipeline_id}/executions/{execution_id}/replies/{draft_id}",
        "New text of a reply draft (only while it is a draft)",
      ),
    )
    .input(ZEditReplyDraftInput)
    .output(ZReplyDraftOut)
    .mutation(({ ctx, input }) => editReplyDraft(svc(ctx), input)),
  approveReply: runs
    .meta(
      rest(
        "POST",
        "/pipelines/{pipeline_id}/executions/{execution_id}/replies/{draft_id}/approve",
        "Approve a reply draft, optionally with its final text",
      ),
    )
    .input(ZApproveReplyDraftInput)
    .output(ZReplyDraftOut)
    .mutation(({ ctx, input }) => approveReplyDraft(svc(ctx), input)),
  discardReply: runs
    .meta(
      rest(
        "POST",
        "/pipelines/{pipeline_id}/executions/{execution_id}/replies/{draft_id}/discard",
        "Discard a reply draft",
      ),
    )
    .input(ZReplyDraftInput)
    .output(ZReplyDraftOut)
    .mutation(({ ctx, input }) => discardReplyDraft(svc(ctx), input)),
  reopenReply: runs
    .meta(
      rest(
        "POST",
        "/pipelines/{pipeline_id}/executions/{execution_id}/replies/{draft_id}/reopen",
        "Make an approved or discarded reply a draft again",
      ),
    )
    .input(ZReplyDraftInput)
    .output(ZReplyDraftOut)
    .mutation(({ ctx, input }) => reopenReplyDraft(svc(ctx), input)),
  // The pages' picker (no REST path): the execution a dashboard or report shows and the runs to choose from.
  selection: reads
    .input(ZSelectionInput)
    .output(ZSelectionOut)
    .query(({ ctx, input }) => getExecutionSelection(svc(ctx), input)),
});
