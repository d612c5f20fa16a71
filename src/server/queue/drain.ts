import type PgBoss from "pg-boss";

/**
 * boss.work() that keeps fetching while there is work: pg-boss waits its polling interval after every
 * fetch that took less than that, so a loop of quick jobs would run at most one job per interval.
 * After each job the loop is notified, which skips that wait; an empty fetch waits as usual.
 */
export async function workDraining<T extends object>(
  boss: PgBoss,
  name: string,
  options: PgBoss.WorkOptions,
  handler: (job: PgBoss.Job<T>) => Promise<void>,
): Promise<string> {
  let id = "";
  id = await boss.work<T>(name, { ...options, batchSize: 1 }, async ([job]) => {
    if (!job) return;
    try {
      await handler(job);
    } finally {
      boss.notifyWorker(id);
    }
  });
  return id;
}
