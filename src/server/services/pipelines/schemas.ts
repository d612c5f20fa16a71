import { z } from "zod";

export const ZPipelineId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9-]*$/, { error: "invalid_pipeline_id" });
export const ZExecutionId = z.uuid({ error: "invalid_execution_id" });

export const ZPipelineIdInput = z.object({ pipeline_id: ZPipelineId });
export type TPipelineIdInput = z.infer<typeof ZPipelineIdInput>;

/** A run request: the pipeline's own input, validated against that pipeline's schema by the service. */
export const ZExecuteInput = z.object({
  pipeline_id: ZPipelineId,
  input: z.record(z.string(), z.unknown()).default({}),
});
export type TExecuteInput = z.output<typeof ZExecuteInput>;

export const EXECUTION_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

/** Orders of the execution history: by queue time, or by total duration (runs without one last). */
export const EXECUTION_SORTS = ["newest", "oldest", "slowest", "fastest"] as const;

export const ZListExecutionsInput = z.object({
  pipeline_id: ZPipelineId,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(EXECUTION_STATUSES).optional(),
  sort: z.enum(EXECUTION_SORTS).default("newest"),
});
export type TListExecutionsInput = z.output<typeof ZListExecutionsInput>;

export const ZExecutionInput = z.object({ pipeline_id: ZPipelineId, execution_id: ZExecutionId });
export type TExecutionInput = z.infer<typeof ZExecutionInput>;

export const ZWidgetInput = z.object({
  pipeline_id: ZPipelineId,
  widget_id: z.string().trim().min(1).max(100),
  /** A chosen execution; the caller's default one (docs/pipelines.md, "Ownership and limits") when absent. */
  execution_id: ZExecutionId.optional(),
});
export type TWidgetInput = z.infer<typeof ZWidgetInput>;

export const ZSynthesisInput = z.object({
  pipeline_id: ZPipelineId,
  /** A chosen execution; the caller's default one (docs/pipelines.md, "Ownership and limits") when absent. */
  execution_id: ZExecutionId.optional(),
});
export type TSynthesisInput = z.infer<typeof ZSynthesisInput>;

/** The execution a dashboard or report page shows: the chosen one, or the caller's default when absent. */
export const ZSelectionInput = z.object({
  pipeline_id: ZPipelineId,
  execution_id: ZExecutionId.optional(),
});
export type TSelectionInput = z.infer<typeof ZSelectionInput>;

/** A figure's ref in report.evidence ("reviews", "category.food.negative", "phrase.price.0", ...). */
export const ZEvidenceRef = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: "invalid_ref" });

/** The reviews behind one figure of a report, by review id, 1-100 per page. */
export const ZEvidenceInput = z.object({
  pipeline_id: ZPipelineId,
  execution_id: ZExecutionId,
  ref: ZEvidenceRef,
  cursor: z.string().trim().min(1).max(200).optional().meta({ description: "next_cursor of the previous page" }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type TEvidenceInput = z.output<typeof ZEvidenceInput>;
