// Small pieces of the client's delivery logic, kept apart so they can be tested alone.

import { backoff } from "../../src/server/core/backoff";

export interface BackoffOptions {
  /** First delay, milliseconds. */
  initialMs: number;
  /** Largest delay, milliseconds. */
  maxMs: number;
  /** `"equal"` (default): half of each step fixed, half random; `"full"`: anywhere between 0 and the step. */
  jitter?: "equal" | "full";
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000 };

/**
 * The back-off while the broker's node is down or restarting (the socket could not be opened, the node
 * closed it `SHUTTING_DOWN` or the connection was lost, a balancer answered 502/503/504 without a
 * Retry-After): short and with full jitter, so the node's clients are back within 2.5 s of it listening
 * again, spread over those 2.5 s instead of landing together (docs/protocol.md, "Reconnecting").
 */
export const RESTART_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 2_500, jitter: "full" };

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential, capped, with "equal jitter" (half
 * fixed, half random) by default, so that peers cut off together do not all return at once, yet none
 * retries sooner than half the step; or "full jitter" (socket.ts, a node that is down).
 */
export function backoffDelay(
  attempt: number,
  opts: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  return backoff(attempt, { baseMs: opts.initialMs, capMs: opts.maxMs, jitter: opts.jitter ?? "equal" }, random);
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

/** One send in the outbox: its frame once it is sealed, and whether it is on the wire now (answer awaited). */
export interface OutboxSlot<F> {
  frame: F | undefined;
  written: boolean;
}

/**
 * The sends of one client, in the order they were made (docs/protocol.md, "Messages: at-least-once, in
 * order"). They go out at once, one after the other, without waiting for answers. A retryable refusal
 * (the broker's store failed, or a frame limit) stops the outbox: nothing more goes out; once every
 * send on the wire is answered and `waitMs` has passed, the first unconfirmed send goes again alone,
 * and again after each refusal; once it is taken, the rest follow in their order. After a reconnect
 * every unconfirmed send goes again, in order. A send reserves its place when it is made, so one that
 * waits for keys holds back the later ones rather than falling behind them.
 */
export class SendOutbox<F extends { id: string }> {
  private readonly slots = new Set<OutboxSlot<F>>();
  private readonly byId = new Map<string, OutboxSlot<F>>();
  /** Slots not on the wire (waiting for their frame, for their turn, or refused). */
  private unwritten = 0;
  private online = false;
  /** A retryable refusal came: nothing goes out but the first unconfirmed send, alone. */
  private recovering = false;
  private probe: OutboxSlot<F> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly write: (frame: F) => void) {}

  /** Sends not yet confirmed. */
  get size(): number {
    return this.slots.size;
  }

  /** Whether this frame is one of the outbox's sends. */
  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** A place for a send being made, behind every earlier one. */
  reserve(): OutboxSlot<F> {
    const slot: OutboxSlot<F> = { frame: undefined, written: false };
    this.slots.add(slot);
    this.unwritten += 1;
    return slot;
  }

  /** The send of this place is ready: it goes out when its turn comes (at once, on the fast path). */
  fill(slot: OutboxSlot<F>, frame: F): void {
    if (!this.slots.has(slot)) return;
    slot.frame = frame;
    this.byId.set(frame.id, slot);
    // Every earlier send is on the wire already: this one follows at once.
    if (this.online && !this.recovering && this.unwritten === 1) this.put(slot);
    else this.pump();
  }

  /** A place given up before its send was made (it could not be sealed). */
  release(slot: OutboxSlot<F>): void {
    this.remove(slot);
  }

  /** The send was answered for good (stored, or refused for a reason that sending again would not change). */
  settled(id: string): void {
    const slot = this.byId.get(id);
    if (slot) this.remove(slot);
  }

  /** The send was refused and is to go again after `waitMs`; false when it is not one of the outbox's. */
  refused(id: string, waitMs: number): boolean {
    const slot = this.byId.get(id);
    if (!slot) return false;
    if (slot.written) {
      slot.written = false;
      this.unwritten += 1;
    }
    // The first refusal, or the lone send that went again: wait before the next try.
    const wait = !this.recovering || slot === this.probe;
    if (slot === this.probe) this.probe = undefined;
    this.recovering = true;
    if (wait) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, waitMs);
      this.timer.unref();
    } else this.pump();
    return true;
  }

  /** A connection is open (welcome): every unconfirmed send goes, in order. */
  connected(): void {
    this.online = true;
    this.pump();
  }

  /** The connection is gone: nothing is on the wire any more. */
  disconnected(): void {
    this.online = false;
    this.recovering = false;
    this.probe = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const slot of this.slots) slot.written = false;
    this.unwritten = this.slots.size;
  }

  /** Forgets every send (the client closed). */
  clear(): void {
    this.disconnected();
    this.slots.clear();
    this.byId.clear();
    this.unwritten = 0;
  }

  private remove(slot: OutboxSlot<F>): void {
    if (!this.slots.delete(slot)) return;
    if (slot.frame) this.byId.delete(slot.frame.id);
    const wasWaiting = !slot.written;
    if (wasWaiting) this.unwritten -= 1;
    if (slot === this.probe) {
      // Taken: the rest follow in their order.
      this.probe = undefined;
      this.recovering = false;
    } else if (!this.recovering && !wasWaiting) return; // the fast path: nothing was waiting for it
    this.pump();
  }

  private pump(): void {
    if (!this.online || this.unwritten === 0) return;
    if (this.recovering) {
      // Alone, after the wait, once everything on the wire was answered: the first unconfirmed send.
      if (this.timer || this.probe || this.slots.size > this.unwritten) return;
      const first = this.slots.values().next().value;
      if (!first?.frame) return;
      this.probe = first;
      this.put(first);
      return;
    }
    for (const slot of this.slots) {
      if (slot.written) continue;
      if (!slot.frame) return;
      this.put(slot);
    }
  }

  private put(slot: OutboxSlot<F>): void {
    slot.written = true;
    this.unwritten -= 1;
    this.write(slot.frame!);
  }
}
