import type { Db } from "@/server/core/db";

/**
 * Marks executions left `running` longer than `olderThanMs` as failed (`worker_lost`), so a run whose
 * worker died can be re-run instead of staying running for ever. Returns how many were marked.
 */
export async function failStaleExecutions(db: Db, olderThanMs: number, now: Date = new Date()): Promise<number> {
  const result = await db.pipelineExecution.updateMany({
    where: { status: "running", startedAt: { lt: new Date(now.getTime() - olderThanMs) } },
    data: { status: "failed", failedStage: "worker", error: "worker_lost", currentStage: null, finishedAt: now },
  });
  return result.count;
}
