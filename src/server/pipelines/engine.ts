import type {
  PipelineDefinition,
  PipelineDeps,
  PipelineOutcome,
  PreparedRun,
  RunScope,
  StageMetric,
  StageMetrics,
} from "./types";
import { NO_ITEMS_WARNING } from "./stage-warnings";

/** A stage (or the preparation before the stages) failed; the metrics of what ran are kept. */
export class StageFailure extends Error {
  constructor(
    readonly stage: string,
    readonly reason: string,
    readonly metrics: StageMetrics,
    readonly totalDurationMs: number,
  ) {
    super(`stage ${stage} failed: ${reason}`);
    this.name = "StageFailure";
  }
}

/** Called when a stage starts or ends, so the caller can store progress (the pages poll it). */
export type ProgressHook = (progress: { currentStage: string | null; metrics: StageMetrics }) => Promise<void> | void;

/** Metrics of a pipeline before it runs: every stage pending. */
export function pendingMetrics(def: Pick<PipelineDefinition, "stages">): StageMetrics {
  return Object.fromEntries(
    def.stages.map((s) => [
      s.id,
      {
        status: "pending",
        duration_ms: null,
        items_in: null,
        items_out: null,
        warnings: [],
        errors: [],
        started_at: null,
        finished_at: null,
      } satisfies StageMetric,
    ]),
  );
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/** The warning of every stage of a run that read nothing (the stages are skipped, the run succeeds). */

/**
 * Runs the stages of a pipeline in order, in this process, timing each one and counting items in
 * and out. A throwing stage marks itself failed, the later ones skipped, and throws StageFailure.
 * A run whose preparation read nothing skips every stage and succeeds with an empty result: there is
 * nothing to analyse, which is an answer, not a failure.
 */
export async function runStages(
  def: PipelineDefinition,
  input: unknown,
  deps: PipelineDeps,
  onProgress: ProgressHook = () => {},
): Promise<{ outcome: PipelineOutcome; metrics: StageMetrics; totalDurationMs: number; scope: RunScope | null }> {
  const started = performance.now();
  const metrics = pendingMetrics(def);
  const elapsed = () => Math.round(performance.now() - started);
  let prepared: PreparedRun<unknown>;
  try {
    prepared = await def.prepare(input, deps);
  } catch (error) {
    for (const s of def.stages) metrics[s.id]!.status = "skipped";
    throw new StageFailure("prepare", reasonOf(error), metrics, elapsed());
  }
  const scope = prepared.scope ?? null;
  if (scope && scope.items === 0) {
    for (const s of def.stages)
      Object.assign(metrics[s.id]!, { status: "skipped", items_in: 0, items_out: 0, warnings: [NO_ITEMS_WARNING] });
    return { outcome: { result: {}, synthesis: null }, metrics, totalDurationMs: elapsed(), scope };
  }
  let value = prepared.first;
  for (const [index, stage] of def.stages.entries()) {
    const m = metrics[stage.id]!;
    m.status = "running";
    m.started_at = deps.now().toISOString();
    await onProgress({ currentStage: stage.id, metrics });
    const t0 = performance.now();
    try {
      m.items_in = stage.count(value as never);
      const result = await stage.run(value as never, prepared.ctx);
      m.items_out = result.itemsOut;
      m.warnings = result.warnings ?? [];
      m.status = "succeeded";
      value = result.output;
    } catch (error) {
      m.status = "failed";
      m.errors = [reasonOf(error)];
      for (const later of def.stages.slice(index + 1)) metrics[later.id]!.status = "skipped";
      throw new StageFailure(stage.id, reasonOf(error), metrics, elapsed());
    } finally {
      m.duration_ms = Math.round((performance.now() - t0) * 10) / 10;
      m.finished_at = deps.now().toISOString();
    }
    await onProgress({ currentStage: stage.id, metrics });
  }
  return { outcome: def.finish(value, prepared.ctx), metrics, totalDurationMs: elapsed(), scope };
}
