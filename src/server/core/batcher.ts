/**
 * Gathers items that arrive close together and hands them to one `flush` call: up to `max` items, or
 * whatever came within `waitMs` of the first. One flush runs at a time, in arrival order, so the
 * results keep the order of the items; items that arrive during a flush form the next batch.
 */
export class Batcher<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    private readonly options: { waitMs: number; max: number },
  ) {}

  /** Queues an item; resolves with its result once its batch is flushed. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.running) return;
      if (this.queue.length >= this.options.max) this.start();
      else this.timer ??= setTimeout(() => this.start(), this.options.waitMs);
    });
  }

  /** Items waiting or being flushed. */
  get pending(): number {
    return this.queue.length;
  }

  /** Flushes everything queued now and waits until no flush is running. */
  async drain(): Promise<void> {
    while (this.running || this.queue.length > 0) {
      if (!this.running) this.start();
      await this.running;
    }
  }

  private start(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.options.max);
    this.running = this.flush(batch.map((b) => b.item)).then(
      (results) => batch.forEach((b, i) => b.resolve(results[i] as R)),
      (error: unknown) => batch.forEach((b) => b.reject(error)),
    );
    void this.running.finally(() => {
      this.running = undefined;
      // What arrived meanwhile goes at once: it has already waited for a whole flush.
      if (this.queue.length > 0) this.start();
    });
  }
}
