// Small pieces of the client's delivery logic, kept apart so they can be tested alone.

import { backoff } from "../../src/server/core/backoff";

export interface BackoffOptions {
  /** First delay, milliseconds. */
  initialMs: number;
  /** Largest delay, milliseconds. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000 };

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential, capped, with "equal jitter" (half
 * fixed, half random) so that peers cut off together by a broker restart do not all return at once,
 * yet none retries sooner than half the step.
 */
export function backoffDelay(
  attempt: number,
  opts: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  return backoff(attempt, { baseMs: opts.initialMs, capMs: opts.maxMs, jitter: "equal" }, random);
}

/** Remembers the last `capacity` message ids, so a message delivered again is recognised and dropped. */
export class SeenIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 10_000) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    // A Set iterates in insertion order: the first entry is the oldest.
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }

  get size(): number {
    return this.ids.size;
  }
}

/** Collects message ids to acknowledge and hands them over in batches (at most `max` ids, after `delayMs`). */
export class AckBatcher {
  private ids: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly flushTo: (ids: string[]) => void,
    private readonly delayMs = 20,
    private readonly max = 500,
  ) {}

  add(id: string): void {
    this.ids.push(id);
    if (this.ids.length >= this.max) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.ids.length > 0) this.flushTo(this.ids.splice(0, this.max));
  }

  /** Forgets ids not yet sent (their messages come again after a reconnect and are acked then). */
  drop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.ids = [];
  }

  get pending(): number {
    return this.ids.length;
  }
}

/** Requests sent and not answered yet, by id: each settles once, with its answer or an error. */
export class PendingRequests<F extends { id: string }, A> {
  private readonly waiting = new Map<string, { frame: F; answer: (a: A) => void; fail: (e: Error) => void }>();

  /** Records a request; the promise settles through settle() or failAll(). */
  wait(frame: F): Promise<A> {
    return new Promise<A>((answer, fail) => this.waiting.set(frame.id, { frame, answer, fail }));
  }

  /** The request of this id, while it waits. */
  get(id: string): F | undefined {
    return this.waiting.get(id)?.frame;
  }

  /** Every waiting request, oldest first. */
  frames(): F[] {
    return [...this.waiting.values()].map((w) => w.frame);
  }

  /** Answers (or fails) one request; false when none of that id waits. */
  settle(id: string, outcome: { answer: A } | { error: Error }): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    this.waiting.delete(id);
    if ("error" in outcome) w.fail(outcome.error);
    else w.answer(outcome.answer);
    return true;
  }

  failAll(error: Error): void {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of all) w.fail(error);
  }
}
