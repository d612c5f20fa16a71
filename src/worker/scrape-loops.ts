import type PgBoss from "pg-boss";
import { waitAtMost } from "../server/core/lifecycle";
import type { Logger } from "../server/core/logger";
import { QUEUES } from "../server/queue/queues";
import type { ReviewDeps } from "../server/services/reviews/deps";
import { takeAndClaim, type TakenRun } from "../server/services/reviews/job-claim";
import { runClaimedRun } from "../server/services/reviews/run-job";

/** Running scrape slots; `stop()` takes no more jobs and waits for the ones running (up to `graceMs`). */
export interface ScrapeLoops {
  stop: (graceMs: number) => Promise<void>;
}

/**
 * Runs scrape jobs in `count` slots, highest priority first. Whenever slots are free, one statement
 * takes as many due queue rows as there are free slots and claims their jobs, and the statement that
 * ends a job also completes its row, so the queue costs a job no round trip of its own (pg-boss's
 * `work()` would add a fetch and a completion per job). A job is taken only when a slot is free for it.
 * Failures go to `boss.fail`, which applies the queue's retries, backoff and dead letter; a lost
 * worker's row expires and is taken again (pg-boss's supervisor). With nothing due, the next look is
 * after WORKER_POLL_MS, or as soon as a slot frees.
 */
export function startScrapeLoops(boss: PgBoss, deps: ReviewDeps, count: number, log: Logger): ScrapeLoops {
  let stopping = false;
  let busy = 0;
  const running = new Set<Promise<void>>();
  let wake: (() => void) | null = null;
  const nudge = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => nudge(), ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function runOne({ queueJobId, run }: TakenRun): Promise<void> {
    const jobId = run?.job.id ?? null;
    try {
      const outcome = run ? await runClaimedRun(deps, run, log, queueJobId) : "skipped";
      // An ended run completed its row in the statement that ended the job; anything else completes it here.
      if (outcome !== "succeeded" && outcome !== "failed") await boss.complete(QUEUES.scrape, queueJobId);
      log.info({ event: "job_run", jobId, outcome }, "scrape job ran");
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      try {
        await boss.fail(QUEUES.scrape, queueJobId, { message });
      } catch (failed) {
        // The row stays active and expires: the queue runs the job again.
        log.error({ err: failed, jobId }, "could not hand a failed job back to the queue");
      }
      log.info({ event: "job_run", jobId, outcome: "retry_later", reason: message }, "scrape job handed back to the queue");
    }
  }

  function start(taken: TakenRun) {
    busy += 1;
    const task: Promise<void> = runOne(taken).finally(() => {
      busy -= 1;
      running.delete(task);
      nudge();
    });
    running.add(task);
  }

  async function dispatch(): Promise<void> {
    while (!stopping) {
      if (busy >= count) {
        await pause(deps.settings.WORKER_POLL_MS);
        continue;
      }
      let taken: TakenRun[] = [];
      try {
        taken = await takeAndClaim(deps.db, deps.settings, count - busy);
      } catch (error) {
        log.error({ err: error }, "taking scrape jobs failed; trying again after the polling interval");
      }
      for (const t of taken) start(t);
      if (taken.length === 0 && !stopping) await pause(deps.settings.WORKER_POLL_MS);
    }
  }

  const dispatcher = count > 0 ? dispatch() : Promise.resolve();
  return {
    stop: async (graceMs) => {
      stopping = true;
      nudge();
      await waitAtMost(Promise.all([dispatcher, ...running]), graceMs);
    },
  };
}
