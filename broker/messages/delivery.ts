import { overdueFor, takeQueuePage, type QueuedMessage } from "../store/message-store";
import { Semaphore } from "../../src/server/core/semaphore";
import type { PreparedMessage } from "../cluster/relay-format";
import { safeErrorFields } from "../http/request";
import { sendText, type PeerConnection } from "../ws/registry";
import { PriorityHolds } from "./holds";
import type { HubDeps, HubOptions } from "./hub-types";
import { outFrame, type OutFrame } from "./message-frames";

const QUEUE_PAGE = 500;
const REPLAY_READS_AT_ONCE = 2;

/**
 * How messages reach this node's connections (docs/protocol.md, "Messages"): live as they are stored
 * (here or on another node), from the queue after connecting or falling behind, and again when no ack
 * came; with the priority holds of busy members and the connections' buffer budgets.
 */
export class Delivery {
  private readonly replayReads = new Semaphore(REPLAY_READS_AT_ONCE);
  private readonly holds: PriorityHolds;
  private redeliverTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: HubDeps,
    private readonly options: Pick<HubOptions, "ackTimeoutMs" | "holdMaxMs">,
  ) {
    this.holds = new PriorityHolds(options.holdMaxMs);
  }

  /** Starts the redelivery of unacknowledged messages. */
  start(): void {
    const every = Math.max(250, Math.floor(this.options.ackTimeoutMs / 2));
    this.redeliverTimer = setInterval(() => void this.redeliverOverdue(), every);
    this.redeliverTimer.unref();
  }

  stop(): void {
    clearInterval(this.redeliverTimer);
  }

  /**
   * A member's status changed: remembered for the holds of its connections here, and when it is no
   * longer busy, what was held for it goes out now (a replay of its queue).
   */
  noteStatus(meshId: string, memberId: string, status: string | null): void {
    const conns = this.deps.registry.ofMember(meshId, memberId);
    if (conns.length === 0) return this.holds.forget(memberId);
    if (this.holds.set(memberId, status)) for (const c of conns) void this.replay(c);
  }

  /**
   * Delivers a connection's queue from the database, oldest first, a page at a time as the socket
   * drains: after connecting, and whenever the connection fell behind its buffer budget. Live messages
   * arriving meanwhile are not held in memory: they are in the queue, and the replay reads once more
   * when one came during a read. Ends (the connection goes back to live delivery) when a read finds
   * nothing more and nothing came meanwhile, or when the connection closes.
   */
  async replay(conn: PeerConnection): Promise<void> {
    // A connection that only sends gets no messages: they stay queued for one that receives.
    if (conn.receives === false) {
      conn.replaying = false;
      return;
    }
    conn.replaying = true;
    let after = "0";
    try {
      // The member's status decides what is held for it (kept up to date by status events after this).
      if (!this.holds.knows(conn.memberId)) {
        const { rows } = await this.deps.pool.query<{ status: string | null }>(
          "SELECT status FROM members WHERE id = $1::uuid",
          [conn.memberId],
        );
        if (!this.holds.knows(conn.memberId)) this.holds.set(conn.memberId, rows[0]?.status ?? null);
      }
      for (;;) {
        if (!(await this.deps.flow.waitForRoom(conn))) return;
        // A few pages are read at once on a node, so many connections replaying together hold a few
        // pages in memory, not one each.
        const page = await this.replayReads.run(async () => {
          // A live message below the cursor came meanwhile: read again from just below it (what this
          // replay already sent is skipped as in flight).
          if (conn.missedFrom !== undefined && conn.missedFrom <= BigInt(after)) after = String(conn.missedFrom - 1n);
          conn.missed = false;
          conn.missedFrom = undefined;
          // Room in wire bytes; base64 makes 3 bytes of ciphertext 4.
          const read = await takeQueuePage(
            this.deps.pool,
            conn.memberId,
            after,
            QUEUE_PAGE,
            Math.max(1, (this.deps.flow.room(conn) * 3) / 4),
          );
          if (conn.ws.readyState === conn.ws.OPEN)
            for (const row of read.rows) if (!conn.inflight.has(row.id)) this.push(conn, outFrame(row, row.attempts));
          return read;
        });
        if (!page || conn.ws.readyState !== conn.ws.OPEN) return;
        after = page.rows.at(-1)?.seq ?? after;
        if (!page.more && !conn.missed) break;
      }
    } catch (error) {
      // What was not replayed stays queued; the redelivery pass hands it out.
      this.deps.log.warn({ event: "replay_failed", ...safeErrorFields(error) }, "queue replay interrupted");
    } finally {
      conn.replaying = false;
    }
  }

  /** Hands out again what this node's members have not acknowledged after the ack timeout. */
  async redeliverOverdue(): Promise<void> {
    const now = Date.now();
    const members = new Set<string>();
    for (const c of this.deps.registry.all()) {
      if (c.replaying) continue;
      members.add(c.memberId);
      for (const [id, entry] of c.inflight)
        if (now - entry.sentAt > 4 * this.options.ackTimeoutMs) c.inflight.delete(id);
    }
    if (members.size === 0) return;
    let rows: QueuedMessage[];
    try {
      rows = await overdueFor(this.deps.pool, [...members], this.options.ackTimeoutMs, 2_000);
    } catch {
      return;
    }
    for (const row of rows) {
      for (const c of this.deps.registry.ofMember(row.meshId, row.memberId)) {
        if (c.replaying || this.deps.flow.overBudget(c)) continue;
        const entry = c.inflight.get(row.id);
        if (entry && now - entry.sentAt < this.options.ackTimeoutMs) continue;
        this.deps.metrics.redeliveries.inc();
        this.push(c, outFrame(row, (entry?.attempt ?? row.attempts) + 1));
      }
    }
  }

  /** A new message to this node's connections of its recipients; `fromSeq`: its seq, or a lower bound of it. */
  deliverPrepared(message: PreparedMessage, path: "local" | "relayed", fromSeq: string): void {
    const out: OutFrame = {
      id: message.id,
      priority: message.priority,
      createdAtMs: message.createdAtMs,
      attempt: 1,
      text: message.text,
    };
    for (const memberId of message.recipients) {
      for (const target of this.deps.registry.ofMember(message.meshId, memberId))
        this.deliver(target, out, path, fromSeq);
    }
  }

  /**
   * Delivers now, unless the connection is being replayed (the replay will read the message, from
   * below `fromSeq` if it has read past it) or is over its buffer budget (it goes on from the database
   * once the socket drains).
   */
  deliver(conn: PeerConnection, frame: OutFrame, path: "local" | "notified" | "relayed", fromSeq: string): void {
    if (conn.replaying) {
      // One the replay already sent (read as soon as it committed) needs no further read.
      if (conn.inflight.has(frame.id)) return;
      conn.missed = true;
      const seq = BigInt(fromSeq);
      if (conn.missedFrom === undefined || seq < conn.missedFrom) conn.missedFrom = seq;
    } else if (this.deps.flow.overBudget(conn)) {
      this.deps.metrics.deliveriesDeferred.inc();
      void this.replay(conn);
    } else {
      this.push(conn, frame, path);
    }
  }

  /** Writes a message frame; a live delivery (`path` given) is timed from the message's creation. */
  private push(conn: PeerConnection, frame: OutFrame, path?: "local" | "notified" | "relayed"): void {
    if (conn.receives === false) return;
    // Held for a busy recipient: it stays queued, and goes out when the status changes or the hold ends.
    if (this.holds.held(conn.memberId, frame)) return;
    const now = Date.now();
    conn.inflight.set(frame.id, { sentAt: now, attempt: frame.attempt });
    this.deps.metrics.messagesDelivered.inc();
    if (path) this.deps.metrics.deliverySeconds.observe({ path }, Math.max(0, now - frame.createdAtMs) / 1000);
    sendText(conn, frame.text);
  }
}
