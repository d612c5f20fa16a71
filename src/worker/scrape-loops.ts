import type PgBoss from "pg-boss";
import type { Logger } from "../server/core/logger";
import { QUEUES } from "../server/queue/queues";
import type { ReviewDeps } from "../server/services/reviews/deps";
import { takeAndClaim } from "../server/services/reviews/job-states";
import { runClaimedRun } from "../server/services/reviews/run-job";

/** Running scrape loops; `stop()` lets each finish the job it holds (up to `graceMs`) and ends them. */
export interface ScrapeLoops {
  stop: (graceMs: number) => Promise<void>;
}

/**
 * `count` loops that each take one scrape job at a time, highest priority first. A loop takes the
 * queue row and claims its job in one statement, and the statement that ends the job also completes
 * the row, so a job costs the queue no round trip of its own (pg-boss's `work()` would add a fetch
 * and a completion per job). Failures go to `boss.fail`, which applies the queue's retries, backoff and
 * dead letter; a lost worker's row expires and is taken again (pg-boss's supervisor), as before.
 * A loop that finds nothing due waits WORKER_POLL_MS.
 */
export function startScrapeLoops(boss: PgBoss, deps: ReviewDeps, count: number, log: Logger): ScrapeLoops {
  let stopping = false;
  const sleepers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  async function once(): Promise<boolean> {
    const taken = await takeAndClaim(deps.db, deps.settings);
    if (!taken) return false;
    const { queueJobId, run } = taken;
    const jobId = run?.job.id ?? null;
    try {
      const outcome = run ? await runClaimedRun(deps, run, log, queueJobId) : "skipped";
      // An ended run completed its row in the statement that ended the job; anything else completes it here.
      if (outcome !== "succeeded" && outcome !== "failed") await boss.complete(QUEUES.scrape, queueJobId);
      log.info({ event: "job_run", jobId, outcome }, "scrape job ran");
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      await boss.fail(QUEUES.scrape, queueJobId, { message });
      log.info({ event: "job_run", jobId, outcome: "retry_later", reason: message }, "scrape job handed back to the queue");
    }
    return true;
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let busy = false;
      try {
        busy = await once();
      } catch (error) {
        log.error({ err: error }, "scrape loop failed; retrying after the polling interval");
      }
      if (!busy && !stopping) await pause(deps.settings.WORKER_POLL_MS);
    }
  }

  const loops = Array.from({ length: count }, () => loop());
  return {
    stop: async (graceMs) => {
      stopping = true;
      for (const wake of [...sleepers]) wake();
      await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, graceMs))]);
    },
  };
}
