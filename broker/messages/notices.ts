import type { StoredNotice } from "./hub-types";

/**
 * Which notifications of other nodes' batches are read back from the database (docs/protocol.md,
 * "Several nodes"). A node that sends this one its batches over a link is not read back: its
 * notification waits until the link's copy of the batch (the same seq range) has come, up to `graceMs`,
 * and is read only if it has not, or at once when the link closes. Notifications of nodes without a
 * link are read as they come. The copies that came before their notification are remembered for a while.
 */
export class NoticeGate {
  private readonly waiting = new Map<string, { node: string; notice: StoredNotice; timer: NodeJS.Timeout }>();
  /** Batches whose link copy came first: key -> when. */
  private readonly relayed = new Map<string, number>();

  constructor(
    private readonly options: {
      graceMs: number;
      /** Whether `node` sends this node its batches on an open link. */
      linked(node: string): boolean;
      /** Reads a batch back from the database. */
      read(notice: StoredNotice): void;
      /** Copies remembered at most (default 10,000), and for at most this long (default 60 s). */
      maxRelayed?: number;
      relayedForMs?: number;
    },
  ) {}

  notice(notice: StoredNotice): void {
    if (!this.options.linked(notice.n)) return this.options.read(notice);
    const key = keyOf(notice.n, notice.a, notice.b);
    if (this.relayed.delete(key)) return;
    if (this.waiting.has(key)) return;
    const timer = setTimeout(() => this.release(key), this.options.graceMs);
    timer.unref();
    this.waiting.set(key, { node: notice.n, notice, timer });
  }

  /** The link's copy of a whole batch came. */
  relayedBatch(node: string, a: string, b: string): void {
    const key = keyOf(node, a, b);
    const entry = this.waiting.get(key);
    if (entry) {
      clearTimeout(entry.timer);
      this.waiting.delete(key);
      return;
    }
    const now = Date.now();
    const forMs = this.options.relayedForMs ?? 60_000;
    for (const [k, at] of this.relayed) {
      if (this.relayed.size < (this.options.maxRelayed ?? 10_000) && now - at < forMs) break;
      this.relayed.delete(k);
    }
    this.relayed.set(key, now);
  }

  /** The link from `node` closed: what waits for its copies is read now. */
  linkDown(node: string): void {
    for (const [key, entry] of this.waiting) if (entry.node === node) this.release(key);
    for (const key of this.relayed.keys()) if (key.startsWith(`${node}|`)) this.relayed.delete(key);
  }

  stop(): void {
    for (const entry of this.waiting.values()) clearTimeout(entry.timer);
    this.waiting.clear();
  }

  get pending(): number {
    return this.waiting.size;
  }

  private release(key: string): void {
    const entry = this.waiting.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(key);
    this.options.read(entry.notice);
  }
}

const keyOf = (node: string, a: string, b: string) => `${node}|${a}|${b}`;
