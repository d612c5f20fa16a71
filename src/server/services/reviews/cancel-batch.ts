import { AppError } from "@/server/core/errors";
import type { ServiceContext } from "../context";
import { ownedBy, type ReviewActor } from "./access";
import { enqueueBatchCallback } from "./callbacks/enqueue";
import { toBatchOut } from "./job-output";
import { cancelQueuedJobs, markBatchCancelled } from "./job-states";

/**
 * DELETE /api/batches/{batch_id}: the batch becomes cancelled, its queued jobs are cancelled at once,
 * its running jobs finish their current run (their results are kept). batch.completed is sent once
 * every job has ended, with status cancelled. Cancelling an ended batch changes nothing.
 */
export async function cancelBatch(ctx: ServiceContext<ReviewActor>, input: { batch_id: string }) {
  const batchId = input.batch_id;
  const owned = await ctx.db.batch.findFirst({ where: { id: batchId, ...ownedBy(ctx.actor) }, select: { id: true } });
  if (!owned) throw new AppError("NOT_FOUND", "batch_not_found");
  const cancelled = await ctx.db.$transaction(
    async (tx) => {
      if (!(await markBatchCancelled(tx, batchId))) return 0;
      const { cancelled: n, endedBatch } = await cancelQueuedJobs(tx, batchId);
      if (endedBatch) await enqueueBatchCallback(tx, batchId);
      return n;
    },
    { timeout: 60_000 },
  );
  const batch = await ctx.db.batch.findUniqueOrThrow({ where: { id: batchId } });
  return { ...toBatchOut(batch), cancelled_jobs: cancelled };
}
