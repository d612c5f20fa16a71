/**
 * Callback attempts at once against one host (host and port), per worker process: at most
 * CALLBACK_MAX_PER_HOST, so a slow receiver holds at most that many attempts and every other
 * receiver's callbacks keep their pace. A slot is held for the exchange with the receiver only, not
 * while the attempt is recorded. The delivery loops skip hosts that are full when they take (see
 * `takeDeliveries`); first attempts made at once may wait for a slot of their host, a few at a time.
 */
export class HostSlots {
  readonly #used = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();
  /** Called whenever a slot frees (the delivery loops look for deliveries to that host again). */
  onRelease: () => void = () => {};

  constructor(readonly perHost: number) {}

  /** Takes a slot of `host` now; false when all are taken. */
  tryAcquire(host: string): boolean {
    const used = this.#used.get(host) ?? 0;
    if (used >= this.perHost) return false;
    this.#used.set(host, used + 1);
    return true;
  }

  /** True when an attempt to `host` would get a slot now or after at most `perHost` attempts already waiting. */
  admits(host: string): boolean {
    return (this.#used.get(host) ?? 0) < this.perHost || (this.#waiting.get(host)?.length ?? 0) < this.perHost;
  }

  /** A slot of `host`, now or as soon as one frees (in order of asking). */
  acquire(host: string): Promise<void> {
    if (this.tryAcquire(host)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const queue = this.#waiting.get(host) ?? [];
      queue.push(resolve);
      this.#waiting.set(host, queue);
    });
  }

  /** Gives a slot back: to the first attempt waiting for the host, else to the pool. */
  release(host: string): void {
    const queue = this.#waiting.get(host);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.#waiting.delete(host);
    if (next) next();
    else {
      const used = (this.#used.get(host) ?? 1) - 1;
      if (used <= 0) this.#used.delete(host);
      else this.#used.set(host, used);
      this.onRelease();
    }
  }

  /** Free slots of the hosts that have attempts running (any other host has all `perHost`). */
  free(): Record<string, number> {
    return Object.fromEntries([...this.#used].map(([host, used]) => [host, Math.max(0, this.perHost - used)]));
  }
}

/**
 * The worker attempts a finished job's first callback at once, beside the scrape loops, instead of
 * leaving it to a delivery loop: that saves a take and a read of the delivery per callback. At most
 * `limit` attempts are made or wait here at a time, and one waits for its host only behind fewer than
 * CALLBACK_MAX_PER_HOST others; beyond that the delivery loops take the first attempt. The delivery
 * row is written with the job's end either way: for an attempt made here it is due only after the
 * attempt's lease, so a worker killed mid-attempt still has its callback attempted again by another.
 */
export class InlineDeliveries {
  #active = 0;
  readonly #running = new Set<Promise<void>>();

  constructor(
    readonly limit: number,
    readonly hosts: HostSlots,
  ) {}

  /** Takes a slot for an attempt to `host` to run here; false when it should go to the delivery loops. */
  tryAcquire(host: string): boolean {
    if (this.#active >= this.limit || !this.hosts.admits(host)) return false;
    this.#active += 1;
    return true;
  }

  /** Gives back a slot taken for an attempt that will not run here. */
  release(): void {
    this.#active -= 1;
  }

  /**
   * Runs an attempt in a taken slot, in the background, once its host has a slot. The attempt calls
   * `answered` when the receiver is done with it, which frees the host's slot (recording needs none);
   * the attempt's own slot is given back when it ends.
   */
  run(host: string, attempt: (answered: () => void) => Promise<unknown>, onError: (error: unknown) => void): void {
    let hostHeld = false;
    const answered = () => {
      if (!hostHeld) return;
      hostHeld = false;
      this.hosts.release(host);
    };
    const task: Promise<void> = this.hosts
      .acquire(host)
      .then(() => {
        hostHeld = true;
        return attempt(answered);
      })
      .then(() => undefined, onError)
      .finally(() => {
        answered();
        this.#active -= 1;
        this.#running.delete(task);
      });
    this.#running.add(task);
  }

  /** Attempts running or waiting now. */
  get active(): number {
    return this.#active;
  }

  /** Waits for the attempts running now (graceful shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }
}
