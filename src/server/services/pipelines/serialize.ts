import { z } from "zod";
import { findPipeline } from "@/server/pipelines/registry";
import type { StageMetrics } from "@/server/pipelines/types";

/** An execution row as the API returns it (stage_metrics parsed, snake_case as in Document 1). */
export interface ExecutionRow {
  id: string;
  pipelineId: string;
  pipelineVersion: string;
  status: "queued" | "running" | "succeeded" | "failed";
  input: unknown;
  stageMetrics: unknown;
  currentStage: string | null;
  failedStage: string | null;
  error: string | null;
  totalDurationMs: number | null;
  attempt: number;
  retryOfId: string | null;
  queuedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  reviewCount: number | null;
  places: unknown;
  emptyReason?: string | null;
  synthesis?: unknown;
}

/** The columns of an execution the API reads (never the big result and synthesis JSON by accident). */
export const EXECUTION_SELECT = {
  id: true,
  pipelineId: true,
  pipelineVersion: true,
  status: true,
  input: true,
  stageMetrics: true,
  currentStage: true,
  failedStage: true,
  error: true,
  totalDurationMs: true,
  attempt: true,
  retryOfId: true,
  queuedAt: true,
  startedAt: true,
  finishedAt: true,
  reviewCount: true,
  places: true,
  emptyReason: true,
} as const;

/** JSON columns may hold a string in rows written by older code: parse them so the API always answers objects. */
export function parsed(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** jsonb does not keep key order: put the stages back in the pipeline's order (unknown ones last). */
function inStageOrder(pipelineId: string, metrics: StageMetrics): StageMetrics {
  const order = findPipeline(pipelineId)?.stages.map((s) => s.id) ?? [];
  const keys = Object.keys(metrics).sort((a, b) => (order.indexOf(a) + 1 || 1e9) - (order.indexOf(b) + 1 || 1e9));
  return Object.fromEntries(keys.map((k) => [k, metrics[k]!]));
}

/** pipeline_executions.places as run-execution stores it (RunPlace[]). */
const ZStoredPlaces = z.array(
  z.object({ place_key: z.string(), origin: z.string(), name: z.string().nullable(), reviews: z.number().int() }),
);

/** A place of an execution as the API returns it; origin, name and count are unknown for runs older than ownership. */
export interface ExecutionPlace {
  place_key: string;
  origin: string | null;
  name: string | null;
  reviews: number | null;
}

/**
 * The places an execution analysed: those it stored, or for a run written before runs stored them
 * (review_count null) the place its input named, so old runs still have a place in the pages.
 */
export function placesOf(row: Pick<ExecutionRow, "places" | "reviewCount" | "input">): ExecutionPlace[] {
  const stored = ZStoredPlaces.safeParse(parsed(row.places));
  if (stored.success && stored.data.length > 0) return stored.data;
  if (row.reviewCount !== null) return [];
  const input = parsed(row.input) as { place_key?: unknown; origin?: unknown } | null;
  if (!input || typeof input.place_key !== "string") return [];
  return [
    {
      place_key: input.place_key,
      origin: typeof input.origin === "string" ? input.origin : null,
      name: null,
      reviews: null,
    },
  ];
}

/** An execution as the API returns it. */
export function toExecutionOut(row: ExecutionRow) {
  return {
    id: row.id,
    pipeline_id: row.pipelineId,
    pipeline_version: row.pipelineVersion,
    status: row.status,
    input: (parsed(row.input) ?? {}) as Record<string, unknown>,
    stage_metrics: inStageOrder(row.pipelineId, (parsed(row.stageMetrics) ?? {}) as StageMetrics),
    current_stage: row.currentStage,
    failed_stage: row.failedStage,
    error: row.error,
    total_duration_ms: row.totalDurationMs,
    attempt: row.attempt,
    retry_of_id: row.retryOfId,
    queued_at: row.queuedAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
    review_count: row.reviewCount,
    places: placesOf(row),
    /** A run that read no reviews: which filter left nothing (docs/pipelines.md, "Runs over nothing"). */
    empty_reason: row.emptyReason ?? null,
  };
}
export type ExecutionOut = ReturnType<typeof toExecutionOut>;
