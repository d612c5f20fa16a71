import { waitAtMost } from "../server/core/lifecycle";
import type { Logger } from "../server/core/logger";

/** Running slots; `stop()` takes nothing more and waits for the items running (up to `graceMs`). */
export interface Slots {
  stop: (graceMs: number) => Promise<void>;
  /** Looks for due work now instead of after the polling interval (something it was waiting for is free). */
  wake: () => void;
  /** Whether the slots still look for work (false once stopping, or if their loop ended). */
  readonly running: boolean;
}

/** What a set of slots takes and runs (scrape jobs, callback attempts). */
export interface SlotWork<T> {
  name: string;
  /** Takes up to `n` due items in one statement (each claimed for this process). */
  take: (n: number) => Promise<T[]>;
  /** Runs one taken item; it never throws (it records its own outcome). */
  run: (item: T) => Promise<void>;
}

/**
 * Runs items in `count` slots. Whenever slots are free, one statement takes as many due items as
 * there are free slots, so an item is taken only when a slot is free for it, and the queue costs an
 * item no round trip of its own. With nothing due, the next look is after `pollMs`, or as soon as a
 * slot frees. A failed take is logged and tried again after `pollMs` (the database may be away).
 */
export function startSlots<T>(work: SlotWork<T>, count: number, pollMs: number, log: Logger): Slots {
  let stopping = false;
  let busy = 0;
  const running = new Set<Promise<void>>();
  let wake: (() => void) | null = null;
  // A nudge while the dispatcher is taking (not pausing) makes its next pause end at once.
  let nudged = false;
  const nudge = () => {
    const w = wake;
    wake = null;
    if (w) w();
    else nudged = true;
  };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (nudged) {
        nudged = false;
        return resolve();
      }
      const timer = setTimeout(() => nudge(), ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  function start(item: T) {
    busy += 1;
    const task: Promise<void> = work
      .run(item)
      .catch((error: unknown) => log.error({ err: error, slots: work.name }, "a slot's work failed"))
      .finally(() => {
        busy -= 1;
        running.delete(task);
        nudge();
      });
    running.add(task);
  }

  async function dispatch(): Promise<void> {
    while (!stopping) {
      if (busy >= count) {
        await pause(pollMs);
        continue;
      }
      nudged = false;
      let taken: T[] = [];
      try {
        taken = await work.take(count - busy);
      } catch (error) {
        log.error({ err: error, slots: work.name }, "taking work failed; trying again after the polling interval");
      }
      for (const item of taken) start(item);
      if (taken.length === 0 && !stopping) await pause(pollMs);
    }
  }

  let looping = true;
  const dispatcher = count > 0 ? dispatch().finally(() => (looping = false)) : Promise.resolve();
  return {
    wake: nudge,
    get running() {
      return looping && !stopping;
    },
    stop: async (graceMs) => {
      stopping = true;
      nudge();
      await waitAtMost(Promise.all([dispatcher, ...running]), graceMs);
    },
  };
}
