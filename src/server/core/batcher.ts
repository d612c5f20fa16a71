/**
 * Gathers items that arrive close together and hands them to one `flush` call: up to `max` items (or
 * units, when `size` tells how many units an item holds), or whatever came within `waitMs` of the
 * first. One flush runs at a time, in arrival order, so the results keep the order of the items; items
 * that arrive during a flush form the next batch.
 */
export class Batcher<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  /** Units queued (items, when there is no `size`). */
  private queued = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    private readonly options: { waitMs: number; max: number; size?: (item: T) => number },
  ) {}

  /** Queues an item; resolves with its result once its batch is flushed. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.queued += this.sizeOf(item);
      if (this.running) return;
      if (this.queued >= this.options.max) this.start();
      else this.timer ??= setTimeout(() => this.start(), this.options.waitMs);
    });
  }

  private sizeOf(item: T): number {
    return this.options.size ? this.options.size(item) : 1;
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
    // Up to `max` units, and at least one item (an item larger than `max` goes alone).
    let count = 0;
    let units = 0;
    while (count < this.queue.length) {
      const next = this.sizeOf(this.queue[count]!.item);
      if (count > 0 && units + next > this.options.max) break;
      units += next;
      count += 1;
    }
    this.queued -= units;
    const batch = this.queue.splice(0, count);
    this.running = this.flush(batch.map((b) => b.item)).then(
      (results) => this.settle(() => batch.forEach((b, i) => b.resolve(results[i] as R))),
      (error: unknown) => this.settle(() => batch.forEach((b) => b.reject(error))),
    );
  }

  /**
   * A flush ended. What arrived meanwhile goes at once (it has already waited for a whole flush), and
   * before this batch's results are handed out: the work its callers do with them (a broker answers and
   * delivers hundreds of messages) then overlaps the next flush instead of holding it back. The results
   * follow in the next tick, after what the next flush queued for it (pg sends a query from the tick
   * queue); the order of the batches' results is kept, since a flush takes longer than that.
   */
  private settle(handOut: () => void): void {
    this.running = undefined;
    if (this.queue.length === 0) return handOut();
    this.start();
    process.nextTick(handOut);
  }
}
