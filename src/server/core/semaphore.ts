/**
 * At most `size` holders at once; the others wait in order of asking. With `maxWaiting`, an
 * acquisition beyond that many waiting is refused (`null`) instead of queued, so a flood cannot grow
 * the queue without bound.
 */
export class Semaphore {
  #held = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly size: number,
    readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {}

  /** Resolves when a slot is held (true), or at once with false when too many are already waiting. */
  acquire(): Promise<boolean> {
    if (this.#held < this.size) {
      this.#held += 1;
      return Promise.resolve(true);
    }
    if (this.#waiting.length >= this.maxWaiting) return Promise.resolve(false);
    return new Promise((resolve) => this.#waiting.push(() => resolve(true)));
  }

  /** Gives a slot back, to the first waiter if there is one. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = Math.max(0, this.#held - 1);
  }

  /** Runs `work` in a slot; null when refused. */
  async run<T>(work: () => Promise<T>): Promise<T | null> {
    if (!(await this.acquire())) return null;
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}
