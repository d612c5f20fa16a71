import { z } from "zod";
import { ZBatchOut } from "./job-output.schema";

/** DELETE /api/batches/{batch_id}: the batch and how many of its queued jobs were cancelled. */
export const ZCancelledBatchOut = ZBatchOut.extend({ cancelled_jobs: z.number().int() });
