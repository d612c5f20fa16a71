import { z } from "zod";
import { ZPageInput } from "../meshes/schemas";
import { ZBatchOut, ZJobOut } from "./job-output.schema";
import { BATCH_STATUSES, CALLBACK_STATES, JOB_STATUSES, page } from "./schemas";

// Inputs and outputs of reading jobs and batches (read.ts).

export const ZListBatchesInput = ZPageInput.extend({
  status: z.enum(BATCH_STATUSES).optional(),
  q: z.string().trim().max(100).optional(),
  sort: z.enum(["created_at", "total_jobs"]).default("created_at"),
  dir: z.enum(["asc", "desc"]).default("desc"),
});
export const ZBatchesPage = page(ZBatchOut);

export const ZListJobsInput = ZPageInput.extend({
  status: z.enum(JOB_STATUSES).optional(),
  batch_id: z.uuid().optional(),
  q: z.string().trim().max(100).optional(),
  sort: z.enum(["created_at", "priority", "finished_at"]).default("created_at"),
  dir: z.enum(["asc", "desc"]).default("desc"),
});
export const ZJobsPage = page(ZJobOut);

export const ZBatchDetailOut = ZBatchOut.extend({ jobs: z.array(ZJobOut) });
export type TBatchDetailOut = z.output<typeof ZBatchDetailOut>;

const ZEvent = z.object({ status: z.enum(JOB_STATUSES), detail: z.record(z.string(), z.unknown()), at: z.date() });

/** GET /api/jobs/{job_id}: the job, its state timeline, a preview of its newest reviews and its callbacks. */
export const ZJobDetailOut = z.object({
  job: ZJobOut,
  events: z.array(ZEvent),
  reviews: z.array(
    z.object({
      id: z.string(),
      external_id: z.string(),
      author: z.string().nullable(),
      rating: z.number().int().nullable(),
      text: z.string().nullable(),
      language: z.string().nullable(),
      published_at: z.date().nullable(),
      owner_reply: z.string().nullable(),
    }),
  ),
  callbacks: z.array(
    z.object({
      id: z.string(),
      webhook_id: z.string(),
      kind: z.string(),
      state: z.enum(CALLBACK_STATES),
      attempts: z.number().int(),
      next_attempt_at: z.date().nullable(),
      attempt_log: z.array(
        z.object({
          attempt: z.number().int(),
          status_code: z.number().int().nullable(),
          error: z.string().nullable(),
          duration_ms: z.number().int(),
          at: z.date(),
        }),
      ),
    }),
  ),
});
