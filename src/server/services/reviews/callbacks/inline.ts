/**
 * The worker attempts a finished job's first callback at once, beside the scrape loops, instead of
 * leaving it to a callback loop: that saves the queue's fetch and completion and a read of the
 * delivery per callback. At most `limit` attempts run at a time; beyond that the first attempt goes
 * through the queue as before. The delivery's first queue row is written with the job's end either
 * way: for an attempt made here it is due only after the attempt's time limit and the grace, so a
 * worker killed mid-attempt still has its callback attempted again by another.
 */
export class InlineDeliveries {
  #active = 0;
  readonly #running = new Set<Promise<void>>();

  constructor(readonly limit: number) {}

  /** Takes a slot for an attempt to run here; false when all are taken (the queue takes it). */
  tryAcquire(): boolean {
    if (this.#active >= this.limit) return false;
    this.#active += 1;
    return true;
  }

  /** Gives back a slot taken for an attempt that will not run here. */
  release(): void {
    this.#active -= 1;
  }

  /** Runs an attempt in a taken slot, in the background; the slot is given back when it ends. */
  run(attempt: () => Promise<unknown>, onError: (error: unknown) => void): void {
    const task: Promise<void> = attempt()
      .then(() => undefined, onError)
      .finally(() => {
        this.#active -= 1;
        this.#running.delete(task);
      });
    this.#running.add(task);
  }

  /** Attempts running now. */
  get active(): number {
    return this.#active;
  }

  /** Waits for the attempts running now (graceful shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }
}
