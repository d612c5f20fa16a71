import type { Db } from "@/server/core/db";
import { Prisma } from "@/server/core/db";
import { logger } from "@/server/core/logger";
import { runStages, StageFailure } from "@/server/pipelines/engine";
import { findPipeline, PIPELINES } from "@/server/pipelines/registry";
import { storeLabels } from "@/server/pipelines/review-analytics/evidence-store";
import type { ModelClassifier } from "@/server/pipelines/review-analytics/model-classifier";
import type { NarrativeWriter } from "@/server/pipelines/review-analytics/synthesis/facts";
import type { PipelineDefinition, StageMetrics } from "@/server/pipelines/types";

/** An execution's end, told to whoever watches (the worker's metrics); services import no metrics library. */
export interface ExecutionObserver {
  executionFinished?(event: {
    pipelineId: string;
    status: "succeeded" | "failed";
    metrics: StageMetrics | null;
    totalDurationMs: number;
  }): void;
}

export interface RunDeps {
  db: Db;
  now?: () => Date;
  writer?: NarrativeWriter | null;
  classifier?: ModelClassifier | null;
  registry?: readonly PipelineDefinition[];
  /** In the worker: told when an execution of a registered pipeline ends (its metrics). */
  observer?: ExecutionObserver;
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/**
 * Runs one queued execution (the worker's handler): claims it (queued → running, so a second
 * delivery does nothing), runs the stages storing progress after each, then stores the result,
 * synthesis, metrics and duration, or the failed stage, its error and the metrics of what ran.
 */
export async function runExecution(deps: RunDeps, executionId: string): Promise<"succeeded" | "failed" | "skipped"> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const claimed = await db.pipelineExecution.updateMany({
    where: { id: executionId, status: "queued" },
    data: { status: "running", startedAt: now(), error: null, failedStage: null },
  });
  if (claimed.count === 0) return "skipped";
  const execution = await db.pipelineExecution.findUniqueOrThrow({
    where: { id: executionId },
    select: { pipelineId: true, input: true, readScopeApiKeyId: true },
  });
  const def = findPipeline(execution.pipelineId, deps.registry ?? PIPELINES);
  const log = logger().child({ executionId, pipelineId: execution.pipelineId });
  if (!def) {
    await db.pipelineExecution.update({
      where: { id: executionId },
      data: { status: "failed", failedStage: "prepare", error: "pipeline_not_registered", finishedAt: now() },
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
      { db, now, writer: deps.writer ?? null, classifier: deps.classifier ?? null, readScopeApiKeyId },
      async ({ currentStage, metrics }) => {
        await db.pipelineExecution.update({
          where: { id: executionId },
          data: { currentStage, stageMetrics: json(metrics) },
        });
      },
    );
    // The label rows first: a run is succeeded only with the evidence its report links to.
    if (run.outcome.labels) await storeLabels(db, executionId, run.outcome.labels);
    await db.pipelineExecution.update({
      where: { id: executionId },
      data: {
        status: "succeeded",
        currentStage: null,
        stageMetrics: json(run.metrics),
        result: json(run.outcome.result),
        synthesis: run.outcome.synthesis ? json(run.outcome.synthesis) : Prisma.DbNull,
        totalDurationMs: run.totalDurationMs,
        // What the run read: 0 marks a run with nothing to analyse (never a page's default view).
        reviewCount: run.scope?.items ?? null,
        places: json(run.scope?.places ?? []),
        finishedAt: now(),
      },
    });
    log.info(
      { event: "execution_succeeded", totalDurationMs: run.totalDurationMs, reviewCount: run.scope?.items ?? null },
      "pipeline execution succeeded",
    );
    deps.observer?.executionFinished?.({
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
    await db.pipelineExecution.update({
      where: { id: executionId },
      data: {
        status: "failed",
        currentStage: null,
        failedStage: failure?.stage ?? "prepare",
        error: reason,
        ...(failure ? { stageMetrics: json(failure.metrics) } : {}),
        totalDurationMs,
        finishedAt: now(),
      },
    });
    log.warn({ event: "execution_failed", stage: failure?.stage ?? "prepare", reason }, "pipeline execution failed");
    deps.observer?.executionFinished?.({
      pipelineId: def.id,
      status: "failed",
      metrics: failure?.metrics ?? null,
      totalDurationMs,
    });
    return "failed";
  }
}
