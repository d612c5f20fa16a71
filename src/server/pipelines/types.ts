import type { z } from "zod";

/** Metrics of one stage of one execution, as stored in `stage_metrics` (keyed by stage id). */
export interface StageMetric {
  status: "pending" | "running" | "succeeded" | "failed" | "skipped";
  duration_ms: number | null;
  items_in: number | null;
  items_out: number | null;
  warnings: string[];
  errors: string[];
  started_at: string | null;
  finished_at: string | null;
}

export type StageMetrics = Record<string, StageMetric>;

/** What a stage hands back: its output, how many items went out, and anything worth a warning. */
export interface StageResult<Out> {
  output: Out;
  itemsOut: number;
  warnings?: string[];
}

/** One step of a pipeline: a pure function of the previous stage's output (and the run's context). */
export interface StageDefinition<In = unknown, Out = unknown, Ctx = unknown> {
  id: string;
  name: string;
  /** How many items the stage receives (for items_in). */
  count: (input: In) => number;
  run: (input: In, ctx: Ctx) => Promise<StageResult<Out>> | StageResult<Out>;
}

/** The six widget kinds the dashboard draws. */
export const WIDGET_KINDS = ["StatCard", "LineChart", "BarChart", "PieChart", "DataTable", "Heatmap"] as const;
export type WidgetKind = (typeof WIDGET_KINDS)[number];

/** One widget of a pipeline's dashboard; its data comes from GET .../widgets/{widget_id}. */
export interface WidgetDefinition {
  id: string;
  kind: WidgetKind;
  title: string;
  description: string;
  /** Grid width in columns of 12 (3, 4, 6, 8 or 12). */
  width: number;
  /** Kind-specific drawing hints (series keys, axis keys, value format). */
  options: Record<string, unknown>;
}

/** Shape of widget data per kind (the API returns exactly one of these). */
export type WidgetData =
  | { kind: "StatCard"; value: number; unit: string | null; label: string; secondary: string | null }
  | { kind: "LineChart"; x_key: string; series: string[]; rows: Record<string, string | number>[] }
  | { kind: "BarChart"; x_key: string; series: string[]; rows: Record<string, string | number>[] }
  | { kind: "PieChart"; slices: { name: string; value: number }[] }
  | { kind: "DataTable"; columns: string[]; rows: Record<string, string | number | null>[] }
  | { kind: "Heatmap"; x_labels: string[]; y_labels: string[]; cells: { x: number; y: number; value: number }[] };

/** One place a run analysed (stored in pipeline_executions.places). */
export interface RunPlace {
  place_key: string;
  origin: string;
  /** The name the platform showed (jobs.place_name), when a job of the scope knows it. */
  name: string | null;
  reviews: number;
}

/** What a run read: how many items (0 = nothing to analyse, the stages are skipped) and from which places. */
export interface RunScope {
  items: number;
  places: RunPlace[];
  /** With 0 items: which of the request's filters left nothing (a code the pages translate). */
  empty_reason?: string;
}

/** The first stage's input and the run's context, built by `prepare`; `scope` says what was read. */
export interface PreparedRun<Ctx> {
  first: unknown;
  ctx: Ctx;
  scope?: RunScope;
}

/**
 * What a run said about one review it read (stored in pipeline_review_labels, one row per review and
 * execution), so that every figure of its report can be traced back to the reviews it counts.
 * Categories are arrays of category ids; a review the run dropped (duplicate, empty) has kept false
 * and nothing else but its place.
 */
export interface ReviewLabel {
  review_id: string;
  kept: boolean;
  /** positive, neutral, negative or mixed; null without text (and for dropped reviews). */
  sentiment: string | null;
  critical: boolean;
  language: string | null;
  rating: number | null;
  /** 'YYYY-MM' of published_at (UTC). */
  month: string | null;
  /** 0 = Monday, UTC. */
  weekday: number | null;
  hour: number | null;
  /** Categories mentioned, and by the polarity of each one's first mention. */
  mentioned: string[];
  positive: string[];
  neutral: string[];
  negative: string[];
  /** Categories of the review's routed issues of critical and of high severity. */
  issue_critical: string[];
  issue_high: string[];
  /** The report's complaint phrases the review uses, as 'category|phrase'. */
  phrases: string[];
  origin: string | null;
  place_key: string | null;
}

/** What the pipeline keeps from a run: the aggregates for the widgets, the synthesis report and, optionally, per-review labels. */
export interface PipelineOutcome {
  result: Record<string, unknown>;
  synthesis: Record<string, unknown> | null;
  /** One row per review read, stored with the execution (pipeline_review_labels). */
  labels?: ReviewLabel[];
}

/**
 * A registered pipeline: code with an id, name, description, version, input schema, ordered stages
 * and a dashboard definition. `load` turns the validated run request into the first stage's input.
 */
export interface PipelineDefinition<Input = unknown, Ctx = unknown> {
  id: string;
  name: string;
  description: string;
  version: string;
  inputSchema: z.ZodType<Input>;
  stages: StageDefinition<never, unknown, Ctx>[];
  dashboard: WidgetDefinition[];
  /**
   * Refuses an input naming data the caller cannot read (a NOT_FOUND AppError, as for absent data),
   * checked when a run is submitted or re-run; `readScopeApiKeyId` as in PipelineDeps.
   */
  authorizeInput?: (
    input: Input,
    access: { db: PipelineDeps["db"]; readScopeApiKeyId: string | null },
  ) => Promise<void>;
  /** Builds the run context (e.g. reads the reviews) from the validated input, within the read scope. */
  prepare: (input: Input, deps: PipelineDeps) => Promise<PreparedRun<Ctx>>;
  /** Turns the last stage output into what is stored with the execution. */
  finish: (last: unknown, ctx: Ctx) => PipelineOutcome;
  /** Data of one widget from a stored result. */
  widgetData: (widgetId: string, result: Record<string, unknown>) => WidgetData | null;
}

/** What a pipeline may use while it runs (the database client, the clock, the report writer). */
export interface PipelineDeps {
  db: import("@/server/core/db").Db;
  now: () => Date;
  /** The narrative writer of synthesis stages (null: the deterministic one). */
  writer?: import("./review-analytics/synthesis/facts").NarrativeWriter | null;
  /** The language-model classifier of classify stages (null: the rules alone). */
  classifier?: import("./review-analytics/model-classifier").ModelClassifier | null;
  /**
   * The API key whose data the run may read (jobs.api_key_id), fixed when the run was submitted;
   * null reads every job (administrators). Required, so no caller can forget the boundary.
   */
  readScopeApiKeyId: string | null;
}
