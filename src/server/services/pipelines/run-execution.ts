import { Prisma } from "@/server/core/db";
import { logger } from "@/server/core/logger";
import { runStages, StageFailure } from "@/server/pipelines/engine";
import { findPipeline, PIPELINES } from "@/server/pipelines/registry";
import { storeLabels } from "@/server/pipelines/review-analytics/evidence-store";
import { storeReplyDrafts, type ReplyModel } from "@/server/pipelines/review-analytics/replies/store";
import type { ModelClassifier } from "@/server/pipelines/review-analytics/model-classifier";
import type { NarrativeWriter } from "@/server/pipelines/review-analytics/synthesis/facts";
import type { PipelineDefinition, StageMetrics } from "@/server/pipelines/types";
import type { SystemActor } from "@/server/services/actor";
import type { ServiceContext } from "@/server/services/context";
import { fireAlerts } from "../alerts/fire-alerts";
import { claimExecution, type ClaimedExecution } from "./take-executions";

/** An execution's end, told to whoever watches (the worker's metrics); services import no metrics library. */
export interface ExecutionObserver {
  executionFinished?(event: {
    pipelineId: string;
    status: "succeeded" | "failed";
    metrics: StageMetrics | null;
    totalDurationMs: number;
  }): void;
}

/**
 * What the worker hands to the runs it makes (its entry builds them once): the language-model writer
 * and classifier, the registry, and who is told of an execution's end. Tests and scripts pass none.
 */
export interface ExecutionRunner {
  writer?: NarrativeWriter | null;
  classifier?: ModelClassifier | null;
  /** Reply drafts through the language model (PIPELINE_LLM_REPLIES); templates alone when absent. */
  replyModel?: ReplyModel | null;
  registry?: readonly PipelineDefinition[];
  /** In the worker: told when an execution of a registered pipeline ends (its metrics). */
  observer?: ExecutionObserver;
}

/** Which execution to run (it must be queued; the run claims it first). */
export interface TRunExecutionInput {
  executionId: string;
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/**
 * Runs one queued execution by id (scripts and tests; the worker takes executions from the queue
 * instead): claims it (queued → running, so a second delivery does nothing), then runs it as
 * {@link runClaimedExecution} does.
 */
export async function runExecution(
  ctx: ServiceContext<SystemActor>,
  input: TRunExecutionInput,
  runner: ExecutionRunner = {},
): Promise<"succeeded" | "failed" | "skipped"> {
  const claimed = await claimExecution(ctx.db, input.executionId);
  if (!claimed) return "skipped";
  return runClaimedExecution(ctx, claimed, runner);
}

/**
 * Runs a claimed execution: runs the stages storing progress after each, then stores the result,
 * synthesis, metrics and duration, or the failed stage, its error and the metrics of what ran. Every
 * write is guarded on the claimed run: a run taken over by another worker (its lease passed) writes nothing more.
 */
export async function runClaimedExecution(
  ctx: ServiceContext<SystemActor>,
  claimed: ClaimedExecution,
  runner: ExecutionRunner = {},
): Promise<"succeeded" | "failed" | "skipped"> {
  const { db, now } = ctx;
  const executionId = claimed.id;
  const thisRun = { id: executionId, runs: claimed.runs };
  const store = async (data: Prisma.PipelineExecutionUpdateManyMutationInput) =>
    (await db.pipelineExecution.updateMany({ where: thisRun, data })).count > 0;
  const execution = await db.pipelineExecution.findUniqueOrThrow({
    where: { id: executionId },
    select: { pipelineId: true, input: true, readScopeApiKeyId: true, queue: true },
  });
  const def = findPipeline(execution.pipelineId, runner.registry ?? PIPELINES);
  const log = logger().child({ executionId, pipelineId: execution.pipelineId });
  if (!def) {
    await store({
      status: "failed",
      failedStage: "prepare",
      error: "pipeline_not_registered",
      leaseUntil: null,
      finishedAt: now(),
    });
    return "failed";
  }
  const started = now();
  try {
    const input = def.inputSchema.parse(execution.input);
    // The read scope fixed at submission: the run reads only data its caller could read then.
    const readScopeApiKeyId = execution.readScopeApiKeyId;
    const run = await runStages(
      def,
      input,
      { db, now, writer: runner.writer ?? null, classifier: runner.classifier ?? null, readScopeApiKeyId },
      async ({ currentStage, metrics }) => {
        await store({ currentStage, stageMetrics: json(metrics) });
      },
    );
    // The label rows first: a run is succeeded only with the evidence its report links to.
    if (run.outcome.labels) {
      await storeLabels(db, executionId, run.outcome.labels);
      // Reply drafts for the reviews that need an answer; a failure here does not fail the analysis:
      // the replies page writes any missing drafts when it is opened (listReplyDrafts).
      try {
        const drafts = await storeReplyDrafts(db, executionId, now(), runner.replyModel ?? null);
        if (drafts.modelFailed)
          log.warn(
            { event: "reply_drafts_model_failed", failed: drafts.modelFailed },
            "model drafts failed; templates kept",
          );
      } catch (error) {
        log.warn({ event: "reply_drafts_failed", err: error }, "reply drafts not written");
      }
    }
    const succeeded = {
      status: "succeeded",
      currentStage: null,
      stageMetrics: json(run.metrics),
      result: json(run.outcome.result),
      synthesis: run.outcome.synthesis ? json(run.outcome.synthesis) : Prisma.DbNull,
      totalDurationMs: run.totalDurationMs,
      // What the run read: 0 marks a run with nothing to analyse (never a page's default view).
      reviewCount: run.scope?.items ?? null,
      places: json(run.scope?.places ?? []),
      emptyReason: run.scope?.items === 0 ? (run.scope.empty_reason ?? "no_reviews") : null,
      leaseUntil: null,
      finishedAt: now(),
    } satisfies Prisma.PipelineExecutionUpdateManyMutationInput;
    // Succeeded and its alerts in one transaction: a worker dying between them leaves neither, and the
    // run is taken over (docs/review-engine.md, "Alerts").
    const alerted = await db.$transaction(async (tx) => {
      if ((await tx.pipelineExecution.updateMany({ where: thisRun, data: succeeded })).count === 0) return null;
      if (!run.outcome.labels || (run.scope?.items ?? 0) === 0) return 0;
      return fireAlerts(tx, {
        id: executionId,
        readScopeApiKeyId,
        places: run.scope?.places ?? [],
        queue: execution.queue,
      });
    });
    if (alerted === null) return "skipped";
    if (alerted > 0) log.info({ event: "alerts_fired", alerts: alerted }, "alert rules fired");
    log.info(
      { event: "execution_succeeded", totalDurationMs: run.totalDurationMs, reviewCount: run.scope?.items ?? null },
      "pipeline execution succeeded",
    );
    runner.observer?.executionFinished?.({
      pipelineId: def.id,
      status: "succeeded",
      metrics: run.metrics,
      totalDurationMs: run.totalDurationMs,
    });
    return "succeeded";
  } catch (error) {
    const failure = error instanceof StageFailure ? error : null;
    const reason = failure ? failure.reason : error instanceof Error ? error.message.slice(0, 1000) : String(error);
    const totalDurationMs = failure?.totalDurationMs ?? now().getTime() - started.getTime();
    const stored = await store({
      status: "failed",
      currentStage: null,
      failedStage: failure?.stage ?? "prepare",
      error: reason,
      ...(failure ? { stageMetrics: json(failure.metrics) } : {}),
      totalDurationMs,
      leaseUntil: null,
      finishedAt: now(),
    });
    if (!stored) return "skipped";
    log.warn({ event: "execution_failed", stage: failure?.stage ?? "prepare", reason }, "pipeline execution failed");
    runner.observer?.executionFinished?.({
      pipelineId: def.id,
      status: "failed",
      metrics: failure?.metrics ?? null,
      totalDurationMs,
    });
    return "failed";
  }
}
