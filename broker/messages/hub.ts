import { uuidv7 } from "../../src/server/core/ids";
import {
  ackMessages,
  insertMessages,
  overdueFor,
  queuedCount,
  queuedInRange,
  takeQueuePage,
  type Ack,
  type NewMessage,
  type QueuedMessage,
  type StoredMessage,
} from "../../src/server/services/broker/message-store";
import { safeErrorFields } from "../http/request";
import { PROTOCOL_VERSION, type TClientFrame, type TMessageFrame } from "../protocol/frames";
import { sendFrame, type PeerConnection } from "../ws/registry";
import { Batcher } from "../../src/server/core/batcher";
import { Semaphore } from "../../src/server/core/semaphore";
import { PriorityHolds } from "./holds";
import { MESSAGES_CHANNEL, type HubDeps, type HubOptions, type StoredNotice } from "./hub-types";
import { frameOf, targetIds } from "./message-frames";

export { MESSAGES_CHANNEL, type HubDeps, type HubOptions };

const QUEUE_PAGE = 500;
const REPLAY_READS_AT_ONCE = 2;

type SendFrame = Extract<TClientFrame, { type: "send" }>;


/**
 * Message flow of one node: batched persistence before the `sent` answer, delivery to this node's
 * connections, notifications to other nodes, acks, queue replay on connect and redelivery of what stays
 * unacknowledged (docs/protocol.md, "Messages").
 */
export class MessageHub {
  private readonly sends: Batcher<NewMessage, StoredMessage | null>;
  /** Acks of one frame at a time (one promise a frame, not one an id), batched by their count. */
  private readonly acks: Batcher<Ack[], undefined>;
  private notices: Promise<void> = Promise.resolve();
  private redeliverTimer: NodeJS.Timeout | undefined;
  private readonly replayReads = new Semaphore(REPLAY_READS_AT_ONCE);
  private readonly holds: PriorityHolds;

  constructor(
    private readonly deps: HubDeps,
    private readonly options: HubOptions,
  ) {
    this.holds = new PriorityHolds(options.holdMaxMs);
    this.sends = new Batcher((items) => this.store(items), { waitMs: options.batchWaitMs, max: options.batchMax });
    this.acks = new Batcher(
      async (frames) => {
        const items = frames.flat();
        await ackMessages(deps.pool, items);
        deps.metrics.acks.inc(items.length);
        return frames.map(() => undefined);
      },
      { waitMs: options.batchWaitMs, max: options.batchMax * 4, size: (frame) => frame.length },
    );
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

  /** Starts the redelivery of unacknowledged messages. */
  start(): void {
    const every = Math.max(250, Math.floor(this.options.ackTimeoutMs / 2));
    this.redeliverTimer = setInterval(() => void this.redeliverOverdue(), every);
    this.redeliverTimer.unref();
  }

  /** Stores what is queued and waits for writes in flight (shutdown). */
  async drain(): Promise<void> {
    clearInterval(this.redeliverTimer);
    await Promise.allSettled([this.sends.drain(), this.acks.drain()]);
    await this.notices;
  }

  /** Sends waiting to be stored (a gauge). */
  get pendingSends(): number {
    return this.sends.pending;
  }

  /** Tells the sender the current epoch and refuses its message (the client seals it again). */
  private refuseStaleEpoch(conn: PeerConnection, frameId: string | undefined): void {
    sendFrame(conn, { v: PROTOCOL_VERSION, type: "key_epoch", epoch: conn.keyEpoch });
    sendFrame(conn, { v: PROTOCOL_VERSION, type: "error", code: "CONFLICT", message: `stale_key_epoch: the mesh's key epoch is ${conn.keyEpoch}`, id: frameId });
  }

  /** A `send` frame: resolve recipients, store (batched), answer `sent`, deliver. */
  async send(conn: PeerConnection, frame: SendFrame): Promise<void> {
    const started = performance.now();
    // A whole-mesh message is sealed under the mesh's current key epoch (docs/protocol.md, "Key
    // epochs"): one under an older key could be read by a member removed since.
    if (frame.to.kind === "mesh" && (frame.to.epoch ?? 0) !== conn.keyEpoch) return this.refuseStaleEpoch(conn, frame.id);
    const ids = targetIds(frame.to);
    let members;
    try {
      members = await this.deps.members.resolve(conn.meshId, [conn.memberId, ...ids]);
    } catch (error) {
      return this.refuse(conn, frame.id, "SERVICE_UNAVAILABLE", "the message was not stored; send it again", error);
    }
    if (!members.has(conn.memberId)) {
      // Revoked, or the mesh was archived, since the connection opened.
      conn.ws.close(4403, "membership ended");
      return;
    }
    // The epoch may have risen while the members were read (a removal's notices arrive together):
    // checked again, so a message sealed under the old key never goes to the new member list.
    if (frame.to.kind === "mesh" && (frame.to.epoch ?? 0) !== conn.keyEpoch) return this.refuseStaleEpoch(conn, frame.id);
    const unknown = ids.filter((id) => !members.has(id));
    if (unknown.length > 0) {
      sendFrame(conn, { v: PROTOCOL_VERSION, type: "error", code: "NOT_FOUND", message: `not a member of this mesh: ${unknown.join(", ")}`, id: frame.id });
      return;
    }
    const recipients = frame.to.kind === "mesh" ? [...members.keys()].filter((id) => id !== conn.memberId) : ids.filter((id) => id !== conn.memberId);
    const message: NewMessage = {
      id: uuidv7(),
      meshId: conn.meshId,
      senderMemberId: conn.memberId,
      targetSpec: frame.to,
      priority: frame.priority,
      ciphertext: Buffer.from(frame.ciphertext, "base64url"),
      recipients,
      // The frame's id: a resend of the same send (after a reconnect) is answered, not stored again.
      clientId: frame.id,
    };
    let stored: StoredMessage | null;
    try {
      stored = await this.sends.add(message);
    } catch (error) {
      return this.refuse(conn, frame.id, "SERVICE_UNAVAILABLE", "the message was not stored; send it again", error);
    }
    if (!stored) {
      // The sender was deleted (its mesh, or its account) while the batch waited: nothing was stored.
      conn.ws.close(4403, "membership ended");
      return;
    }
    const out = frameOf({ ...message, ...stored, ciphertext: frame.ciphertext }, 1);
    sendFrame(conn, { v: PROTOCOL_VERSION, type: "sent", id: frame.id, messageId: stored.id, createdAt: out.createdAt, recipients: recipients.length });
    this.deps.metrics.sendStoreSeconds.observe((performance.now() - started) / 1000);
    // A resend: its recipients have (or will get) the first one from the queue.
    if (stored.duplicate) return;
    this.deps.metrics.messagesSent.inc();
    this.deps.metrics.messageBytes.inc(message.ciphertext.length);
    for (const memberId of recipients) {
      for (const target of this.deps.registry.ofMember(conn.meshId, memberId)) this.deliver(target, out, "local");
    }
  }

  /** An `ack` frame: forget the messages on this node's connections of the member, then persist (batched). */
  ack(conn: PeerConnection, messageIds: readonly string[]): void {
    for (const c of this.deps.registry.ofMember(conn.meshId, conn.memberId)) for (const id of messageIds) c.inflight.delete(id);
    // A lost ack only means one more delivery; at-least-once holds.
    this.acks.add(messageIds.map((envelopeId) => ({ memberId: conn.memberId, envelopeId }))).catch((error: unknown) => {
      this.deps.log.warn({ event: "ack_failed", ...safeErrorFields(error) }, "acknowledgement not stored");
    });
  }

  /** How many messages wait for a member (the welcome frame's `queued`). */
  async queued(memberId: string): Promise<number> {
    return queuedCount(this.deps.pool, memberId);
  }

  /**
   * Delivers a connection's queue from the database, oldest first, a page at a time as the socket
   * drains: after connecting, and whenever the connection fell behind its buffer budget. Live messages
   * arriving meanwhile are not held in memory: they are in the queue, and the replay reads once more
   * when one came during a read. Ends (the connection goes back to live delivery) when a read finds
   * nothing more and nothing came meanwhile, or when the connection closes.
   */
  async replay(conn: PeerConnection): Promise<void> {
    conn.replaying = true;
    let after = "0";
    try {
      // The member's status decides what is held for it (kept up to date by status events after this).
      if (!this.holds.knows(conn.memberId)) {
        const { rows } = await this.deps.pool.query<{ status: string | null }>("SELECT status FROM members WHERE id = $1::uuid", [conn.memberId]);
        if (!this.holds.knows(conn.memberId)) this.holds.set(conn.memberId, rows[0]?.status ?? null);
      }
      for (;;) {
        if (!(await this.deps.flow.waitForRoom(conn))) return;
        // A few pages are read at once on a node, so many connections replaying together hold a few
        // pages in memory, not one each.
        const page = await this.replayReads.run(async () => {
          conn.missed = false;
          // Room in wire bytes; base64 makes 3 bytes of ciphertext 4.
          const read = await takeQueuePage(this.deps.pool, conn.memberId, after, QUEUE_PAGE, Math.max(1, (this.deps.flow.room(conn) * 3) / 4));
          if (conn.ws.readyState === conn.ws.OPEN) for (const row of read.rows) if (!conn.inflight.has(row.id)) this.push(conn, frameOf(row, row.attempts));
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

  /** A notification from any node; this node delivers what is for its own connections. */
  onNotification(payload: string): void {
    let notice: StoredNotice;
    try {
      notice = JSON.parse(payload) as StoredNotice;
    } catch {
      return;
    }
    if (notice.n === this.deps.nodeId) return;
    const members = notice.m.flatMap((meshId) => this.deps.registry.inMesh(meshId).map((c) => c.memberId));
    if (members.length === 0) return;
    // One at a time, in the order they came, so messages keep their order across nodes.
    this.notices = this.notices.then(async () => {
      try {
        const rows = await queuedInRange(this.deps.pool, [...new Set(members)], notice.a, notice.b);
        for (const row of rows) for (const c of this.deps.registry.ofMember(row.meshId, row.memberId)) this.deliver(c, frameOf(row, 1), "notified");
      } catch (error) {
        this.deps.log.warn({ event: "notice_failed", ...safeErrorFields(error) }, "could not read notified messages; redelivery will");
      }
    });
  }

  /** Hands out again what this node's members have not acknowledged after the ack timeout. */
  async redeliverOverdue(): Promise<void> {
    const now = Date.now();
    const members = new Set<string>();
    for (const c of this.deps.registry.all()) {
      if (c.replaying) continue;
      members.add(c.memberId);
      for (const [id, entry] of c.inflight) if (now - entry.sentAt > 4 * this.options.ackTimeoutMs) c.inflight.delete(id);
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
        this.push(c, frameOf(row, (entry?.attempt ?? row.attempts) + 1));
      }
    }
  }

  /** One statement stores the batch, its recipients and audit events, and notifies the other nodes at commit. */
  private async store(items: NewMessage[]): Promise<(StoredMessage | null)[]> {
    const started = performance.now();
    const stored = await insertMessages(this.deps.pool, items, this.options.ttlMs, { channel: MESSAGES_CHANNEL, nodeId: this.deps.nodeId });
    this.deps.metrics.storeBatchSeconds.observe((performance.now() - started) / 1000);
    this.deps.metrics.storeBatchMessages.observe(items.length);
    return stored;
  }

  /**
   * Delivers now, unless the connection is being replayed (the replay will read the message) or is
   * over its buffer budget (it goes on from the database once the socket drains).
   */
  private deliver(conn: PeerConnection, frame: TMessageFrame, path: "local" | "notified"): void {
    if (conn.replaying) {
      conn.missed = true;
    } else if (this.deps.flow.overBudget(conn)) {
      this.deps.metrics.deliveriesDeferred.inc();
      void this.replay(conn);
    } else {
      this.push(conn, frame, path);
    }
  }

  /** Writes a message frame; a live delivery (`path` given) is timed from the message's creation. */
  private push(conn: PeerConnection, frame: TMessageFrame, path?: "local" | "notified"): void {
    // Held for a busy recipient: it stays queued, and goes out when the status changes or the hold ends.
    if (this.holds.held(conn.memberId, frame)) return;
    const now = Date.now();
    conn.inflight.set(frame.messageId, { sentAt: now, attempt: frame.attempt });
    this.deps.metrics.messagesDelivered.inc();
    if (path) this.deps.metrics.deliverySeconds.observe({ path }, Math.max(0, now - Date.parse(frame.createdAt)) / 1000);
    sendFrame(conn, frame);
  }

  private refuse(conn: PeerConnection, id: string, code: "SERVICE_UNAVAILABLE", message: string, error: unknown): void {
    this.deps.log.warn({ event: "send_failed", ...safeErrorFields(error) }, "message not stored");
    sendFrame(conn, { v: PROTOCOL_VERSION, type: "error", code, message, id });
  }
}
