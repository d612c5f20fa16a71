import { z } from "zod";
import { ZBatchOut } from "./job-output.schema";
import { callback, exactlyOnePlace, requester, targetShape, ZJobTarget, ZPriority, ZText } from "./schemas";

// Inputs and outputs of creating jobs and batches (create-jobs.ts), parsed once by the router.

/** POST /api/scrape and /api/scrape/platform-reviews. */
export const ZCreateJobInput = z
  .object({ ...requester, priority: ZPriority, ...callback, ...targetShape })
  .refine(...exactlyOnePlace);
export type TCreateJobInput = z.input<typeof ZCreateJobInput>;

/** POST /api/scrape/platform-reviews/batch: shared requester, priority and callback, one target per job. */
export const ZCreateBatchInput = z.object({
  name: ZText.optional(),
  ...requester,
  priority: ZPriority,
  ...callback,
  jobs: z.array(ZJobTarget).min(1),
});
export type TCreateBatchInput = z.input<typeof ZCreateBatchInput>;

/** A created batch: the batch and its jobs' ids in the order of the targets. */
export const ZCreatedBatchOut = ZBatchOut.extend({ job_ids: z.array(z.string()) });
