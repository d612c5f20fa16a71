import { z } from "zod";
import { EXECUTION_STATUSES } from "@/server/services/pipelines/schemas";
import { WIDGET_KINDS } from "@/server/pipelines/types";
import { ZDate } from "./common";

// Output schemas of the pipeline API (Document 1): REST answers in /api/openapi.json, and a whitelist.

const ZStatus = z.enum(EXECUTION_STATUSES);
const ZJsonObject = z.record(z.string(), z.unknown());

export const ZStageMetricOut = z.object({
  status: z.enum(["pending", "running", "succeeded", "failed", "skipped"]),
  duration_ms: z.number().nullable(),
  items_in: z.number().int().nullable(),
  items_out: z.number().int().nullable(),
  warnings: z.array(z.string()),
  errors: z.array(z.string()),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

const ZLatest = z
  .object({ id: z.string(), status: ZStatus, queued_at: ZDate, finished_at: ZDate.nullable() })
  .nullable();
const ZPipelineSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.string(),
  stages: z.array(z.object({ id: z.string(), name: z.string() })),
  widget_count: z.number().int(),
  latest_execution: ZLatest,
});
export const ZPipelineListOut = z.object({ items: z.array(ZPipelineSummary) });
export const ZPipelineOut = ZPipelineSummary.extend({
  input_schema: ZJsonObject.meta({ description: "JSON Schema of the run request" }),
});

const ZPlaceOut = z.object({
  place_key: z.string(),
  origin: z.string().nullable().meta({ description: "Platform origin; null for runs older than stored places" }),
  name: z.string().nullable().meta({ description: "Name the platform showed, when a collection job recorded it" }),
  reviews: z.number().int().nullable().meta({ description: "Reviews of this place the run analysed" }),
});
const ZReviewCount = z
  .number()
  .int()
  .nullable()
  .meta({ description: "Reviews the run read; 0: nothing to analyse; null: not run yet (or an older run)" });

export const ZExecutionOut = z.object({
  id: z.string(),
  pipeline_id: z.string(),
  pipeline_version: z.string(),
  status: ZStatus,
  input: ZJsonObject,
  stage_metrics: z.record(z.string(), ZStageMetricOut),
  current_stage: z.string().nullable(),
  failed_stage: z.string().nullable(),
  error: z.string().nullable(),
  total_duration_ms: z.number().int().nullable(),
  attempt: z.number().int(),
  retry_of_id: z.string().nullable(),
  queued_at: ZDate,
  started_at: ZDate.nullable(),
  finished_at: ZDate.nullable(),
  review_count: ZReviewCount,
  places: z.array(ZPlaceOut),
  empty_reason: z.string().nullable().meta({
    description:
      "A run that read no reviews: which filter left nothing (no_reviews_for_place, none_in_date_range, jobs_not_finished, jobs_have_no_reviews, place_not_in_jobs, no_reviews); null otherwise",
  }),
});
export const ZExecutionDetailOut = ZExecutionOut.extend({
  synthesis_format: z.enum(["v2", "v1", "unknown"]).nullable(),
});
export const ZExecutionPageOut = z.object({
  items: z.array(ZExecutionOut),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const ZWidgetDefinitionOut = z.object({
  id: z.string(),
  kind: z.enum(WIDGET_KINDS),
  title: z.string(),
  description: z.string(),
  width: z.number().int(),
  options: ZJsonObject,
});
export const ZDashboardOut = z.object({ pipeline_id: z.string(), widgets: z.array(ZWidgetDefinitionOut) });
export const ZWidgetDataOut = z.object({
  pipeline_id: z.string(),
  widget_id: z.string(),
  kind: z.enum(WIDGET_KINDS),
  execution_id: z.string(),
  execution_status: ZStatus,
  state: z.enum(["ready", "no_reviews", "no_result"]).meta({
    description: "no_reviews: the run found nothing to analyse; no_result: the run has no data for this widget",
  }),
  review_count: ZReviewCount,
  data: ZJsonObject.nullable().meta({ description: "Data of the widget's kind; null unless state is ready" }),
});
export const ZSynthesisOut = z.object({
  pipeline_id: z.string(),
  execution_id: z.string(),
  finished_at: ZDate.nullable(),
  review_count: ZReviewCount,
  places: z.array(ZPlaceOut),
  state: z
    .enum(["ready", "no_reviews"])
    .meta({ description: "no_reviews: the run found nothing to analyse, and has no report" }),
  format: z.enum(["v2", "v1", "unknown"]).nullable(),
  report: ZJsonObject.nullable().meta({
    description:
      "v2 report (report_version, executive_summary, ...) or legacy v1 sections; null when state is no_reviews",
  }),
});

const ZChoiceOut = z.object({
  id: z.string(),
  status: ZStatus,
  queued_at: ZDate,
  finished_at: ZDate.nullable(),
  review_count: ZReviewCount,
  places: z.array(ZPlaceOut),
});
/** The execution a page shows and the runs its picker offers (tRPC only). */
export const ZSelectionOut = z.object({
  pipeline_id: z.string(),
  current: ZChoiceOut.nullable(),
  choices: z.array(ZChoiceOut),
});

export const ZEvidenceOut = z.object({
  execution_id: z.string(),
  ref: z.string(),
  figure: z.object({
    value: z.number(),
    unit: z.string().meta({
      description:
        "reviews, mentions, issues, places, %, stars, score, points (a category's net score per place, -100..100), risk, month, time or date",
    }),
    text: z
      .string()
      .nullable()
      .meta({ description: "How the figure is written when it is not the number (a month, a date, a clock time)" }),
    reviews: z.number().int().meta({ description: "How many reviews the figure counts" }),
    of_reviews: z.number().int().nullable().meta({ description: "A share's base: how many reviews it is a share of" }),
    previous_run: z
      .string()
      .nullable()
      .meta({ description: "The previous execution whose reviews these are (figures of report.comparison)" }),
  }),
  filter: ZJsonObject.meta({
    description: "Which label rows of the run the figure counts (docs/pipelines.md, Evidence)",
  }),
  items: z.array(
    z.object({
      review_id: z.string(),
      author: z.string().nullable(),
      rating: z.number().int().nullable(),
      published_at: z.string().nullable(),
      text: z.string().nullable(),
      stored: z.boolean(),
      sentiment: z.string().nullable(),
      critical: z.boolean(),
      language: z.string().nullable(),
      categories: z.array(z.string()),
      negative_categories: z.array(z.string()),
      origin: z.string().nullable(),
      place_key: z.string().nullable(),
    }),
  ),
  next_cursor: z.string().nullable(),
});
