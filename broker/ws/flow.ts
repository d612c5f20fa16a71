import type { Logger } from "../../src/server/core/logger";
import type { BrokerMetrics } from "../metrics";
import { closeWith } from "../protocol/close";
import type { ConnectionRegistry, PeerConnection } from "./registry";

// Flow control (docs/protocol.md, "Flow control"): each connection may have at most `maxBuffered`
// bytes written and not yet taken by the kernel (ws's bufferedAmount). Message delivery stops there and
// goes on from the database once the socket has drained to half of it; a connection that stays above
// its budget for `slowConsumerMs` is closed `slow_consumer` (4408) (its messages stay queued). The
// connections of one member on a node share a second budget, `maxBufferedPerMember`: many stalled
// connections of one member hold that much, not that many times the connection budget.

const TICK_MS = 25;
const SCAN_MS = 1_000;
// After the close frame, a consumer that still does not read is cut.
const TERMINATE_AFTER_MS = 5_000;
/**
 * What a connection may always hold, whatever its member's other connections hold: stalled ones cannot
 * starve one that reads (each gets at least one message at a time).
 */
const MIN_SHARE = 64 * 1024;

interface Watched {
  since: number;
  waiters: ((room: boolean) => void)[];
}

export interface FlowOptions {
  maxBuffered: number;
  maxBufferedPerMember: number;
  slowConsumerMs: number;
}

export class FlowControl {
  private readonly watched = new Map<PeerConnection, Watched>();
  private tick: NodeJS.Timeout | undefined;
  private scan: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: FlowOptions,
    private readonly deps: { registry: ConnectionRegistry; metrics: BrokerMetrics; log: Logger },
  ) {}

  /** Watches every connection's buffer once a second (frames other than messages count too). */
  start(): void {
    this.scan = setInterval(() => {
      for (const conn of this.deps.registry.all()) if (this.overBudget(conn)) this.watch(conn);
    }, SCAN_MS);
    this.scan.unref();
  }

  stop(): void {
    clearInterval(this.scan);
    clearInterval(this.tick);
    this.tick = undefined;
    for (const [, w] of this.watched) for (const resolve of w.waiters) resolve(false);
    this.watched.clear();
  }

  /** The most bytes a connection may be handed now (0 when it, or its member, is over budget). */
  room(conn: PeerConnection): number {
    const own = conn.ws.bufferedAmount;
    const memberRoom = Math.max(this.options.maxBufferedPerMember - this.memberBuffered(conn), MIN_SHARE - own);
    return Math.max(0, Math.min(this.options.maxBuffered - own, memberRoom));
  }

  overBudget(conn: PeerConnection): boolean {
    const own = conn.ws.bufferedAmount;
    return (
      own > this.options.maxBuffered ||
      (own > MIN_SHARE && this.memberBuffered(conn) > this.options.maxBufferedPerMember)
    );
  }

  /** Bytes buffered on all of this node's connections of the member (at most MAX_CONNECTIONS_PER_MEMBER). */
  private memberBuffered(conn: PeerConnection): number {
    let sum = 0;
    for (const c of this.deps.registry.ofMember(conn.meshId, conn.memberId)) sum += c.ws.bufferedAmount;
    return sum;
  }

  private drained(conn: PeerConnection): boolean {
    const own = conn.ws.bufferedAmount;
    return (
      own <= this.options.maxBuffered / 2 &&
      (own <= MIN_SHARE / 2 || this.memberBuffered(conn) <= this.options.maxBufferedPerMember / 2)
    );
  }

  /**
   * Resolves true once the connection has drained to half its budget (at once when it has), false
   * when it closed meanwhile (or was closed as a slow consumer).
   */
  waitForRoom(conn: PeerConnection): Promise<boolean> {
    if (conn.ws.readyState !== conn.ws.OPEN) return Promise.resolve(false);
    if (this.drained(conn)) return Promise.resolve(true);
    return new Promise((resolve) => this.watch(conn).waiters.push(resolve));
  }

  private watch(conn: PeerConnection): Watched {
    let w = this.watched.get(conn);
    if (!w) {
      w = { since: Date.now(), waiters: [] };
      this.watched.set(conn, w);
      this.tick ??= setInterval(() => this.check(), TICK_MS);
    }
    return w;
  }

  private check(): void {
    const now = Date.now();
    for (const [conn, w] of this.watched) {
      const open = conn.ws.readyState === conn.ws.OPEN;
      if (open && this.drained(conn)) {
        this.release(conn, w, true);
      } else if (!open) {
        this.release(conn, w, false);
      } else if (conn.ws.bufferedAmount <= this.options.maxBuffered / 2) {
        // Waiting only for the member's other connections: this one reads, it is no slow consumer.
        w.since = now;
      } else if (now - w.since >= this.options.slowConsumerMs) {
        this.deps.metrics.slowConsumers.inc();
        this.deps.log.info(
          { event: "ws_slow_consumer", connectionId: conn.id, buffered: conn.ws.bufferedAmount },
          "slow consumer closed",
        );
        closeWith(conn.ws, "slow_consumer");
        setTimeout(() => conn.ws.terminate(), TERMINATE_AFTER_MS).unref();
        this.release(conn, w, false);
      }
    }
    if (this.watched.size === 0) {
      clearInterval(this.tick);
      this.tick = undefined;
    }
  }

  private release(conn: PeerConnection, w: Watched, room: boolean): void {
    this.watched.delete(conn);
    for (const resolve of w.waiters) resolve(room);
  }
}
