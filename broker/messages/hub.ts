import { uuidv7 } from "../../src/server/core/ids";
import {
  ackMessages,
  insertMessages,
  queuedCount,
  type Ack,
  type NewMessage,
  type StoredMessage,
} from "../store/message-store";
import type { PreparedMessage } from "../cluster/relay-format";
import { safeErrorFields } from "../http/request";
import { closeWith } from "../protocol/close";
import { PROTOCOL_VERSION, type TClientFrame } from "../protocol/frames";
import { sendFrame, type PeerConnection } from "../ws/registry";
import { Batcher } from "../../src/server/core/batcher";
import { CrossNode } from "./cross-node";
import { Delivery } from "./delivery";
import { MESSAGES_CHANNEL, type HubDeps, type HubOptions } from "./hub-types";
import { outFrame, seqBefore, targetIds } from "./message-frames";
import { SendOrder, type RetryableRefusal, type SendBlock, type SendTicket } from "./send-order";

export { MESSAGES_CHANNEL, type HubDeps, type HubOptions };

type SendFrame = Extract<TClientFrame, { type: "send" }>;
/** A send on its way to the store, with its ciphertext as the peer sent it (base64url, for the frame). */
type Outgoing = NewMessage & { text: string; ticket: SendTicket };
/** A send left out of its batch: an earlier send of its connection was refused meanwhile. */
const HELD = "held";
/** What the store gives a send: the stored message and, when it is new, its frame for the recipients. */
type Stored = (StoredMessage & { out?: PreparedMessage }) | null | typeof HELD;

/**
 * Message flow of one node: batched persistence before the `sent` answer, delivery to this node's
 * connections (delivery.ts), the other nodes (cross-node.ts), acks, queue replay on connect and
 * redelivery of what stays unacknowledged (docs/protocol.md, "Messages").
 */
export class MessageHub {
  private readonly sends: Batcher<Outgoing, Stored>;
  /**
   * Acks of one frame at a time (one promise a frame, not one an id), batched by their count. They
   * wait longer than sends (nobody waits for an ack's answer): clients ack a few messages at a time,
   * each on its own timer, and every call is a round trip and a transaction for the database.
   */
  private readonly acks: Batcher<Ack[], undefined>;
  private readonly delivery: Delivery;
  private readonly crossNode: CrossNode;
  private readonly order = new SendOrder();

  constructor(
    private readonly deps: HubDeps,
    private readonly options: HubOptions,
  ) {
    this.delivery = new Delivery(deps, options);
    this.crossNode = new CrossNode(deps, this.delivery);
    this.sends = new Batcher((items) => this.store(items), { waitMs: options.batchWaitMs, max: options.batchMax });
    this.acks = new Batcher(
      async (frames) => {
        const items = frames.flat();
        await ackMessages(deps.pool, items);
        deps.metrics.acks.inc(items.length);
        deps.metrics.ackBatchAcks.observe(items.length);
        return frames.map(() => undefined);
      },
      { waitMs: options.ackBatchWaitMs, max: options.batchMax * 4, size: (frame) => frame.length },
    );
  }

  /** A member's status changed (holds: delivery.ts). */
  noteStatus(meshId: string, memberId: string, status: string | null): void {
    this.delivery.noteStatus(meshId, memberId, status);
  }

  /** Starts the redelivery of unacknowledged messages. */
  start(): void {
    this.delivery.start();
  }

  /** Stores what is queued and waits for writes in flight (shutdown). */
  async drain(): Promise<void> {
    this.delivery.stop();
    await Promise.allSettled([this.sends.drain(), this.acks.drain()]);
    await this.crossNode.drain();
  }

  /** Sends waiting to be stored (a gauge). */
  get pendingSends(): number {
    return this.sends.pending;
  }

  /** Delivers a connection's queue from the database (delivery.ts). */
  replay(conn: PeerConnection): Promise<void> {
    return this.delivery.replay(conn);
  }

  /** Hands out again what this node's members have not acknowledged after the ack timeout. */
  redeliverOverdue(): Promise<void> {
    return this.delivery.redeliverOverdue();
  }

  /** A notification of another node's batch (cross-node.ts). */
  onNotification(payload: string): void {
    this.crossNode.onNotification(payload);
  }

  /** Tells the sender the current epoch and refuses its message (the client seals it again). */
  private refuseStaleEpoch(conn: PeerConnection, frameId: string | undefined): void {
    sendFrame(conn, { v: PROTOCOL_VERSION, type: "key_epoch", epoch: conn.keyEpoch });
    sendFrame(conn, {
      v: PROTOCOL_VERSION,
      type: "error",
      code: "CONFLICT",
      message: `stale_key_epoch: the mesh's key epoch is ${conn.keyEpoch}`,
      id: frameId,
    });
  }

  /**
   * A `send` frame: resolve recipients, store (batched), answer `sent`, deliver; in the connection's
   * order (send-order.ts): a send that arrives while an earlier one of its connection stays refused is
   * refused the same way, without a look at the database.
   */
  async send(conn: PeerConnection, frame: SendFrame): Promise<void> {
    const ticket = this.order.arrive(conn, frame.id);
    if (!("sends" in ticket)) return this.refuseHeld(conn, frame.id, ticket);
    let passed = false;
    const pass = () => {
      if (!passed) this.order.pass(ticket);
      passed = true;
    };
    try {
      await this.sendInOrder(conn, frame, ticket, pass);
    } catch (error) {
      this.order.refused(ticket, frame.id, "SERVICE_UNAVAILABLE");
      this.refuse(conn, frame.id, "SERVICE_UNAVAILABLE", "the message was not stored; send it again", error);
    } finally {
      pass();
      this.order.done(ticket);
    }
  }

  /** A send frame refused before it reached the hub (a frame limit): the sends after it wait for it. */
  refusedAtArrival(conn: PeerConnection, id: string, code: RetryableRefusal): void {
    this.order.refusedAtArrival(conn, id, code);
  }

  private async sendInOrder(conn: PeerConnection, frame: SendFrame, ticket: SendTicket, pass: () => void) {
    const started = performance.now();
    // A whole-mesh message is sealed under the mesh's current key epoch (docs/protocol.md, "Key
    // epochs"): one under an older key could be read by a member removed since.
    if (frame.to.kind === "mesh" && (frame.to.epoch ?? 0) !== conn.keyEpoch)
      return this.refuseStaleEpoch(conn, frame.id);
    const ids = targetIds(frame.to);
    let members;
    try {
      members = await this.deps.members.resolve(conn.meshId, [conn.memberId, ...ids]);
    } catch (error) {
      this.order.refused(ticket, frame.id, "SERVICE_UNAVAILABLE");
      return this.refuse(conn, frame.id, "SERVICE_UNAVAILABLE", "the message was not stored; send it again", error);
    }
    if (!members.has(conn.memberId)) {
      // Revoked, or the mesh was archived, since the connection opened.
      closeWith(conn.ws, "FORBIDDEN", "membership ended");
      return;
    }
    // The epoch may have risen while the members were read (a removal's notices arrive together):
    // checked again, so a message sealed under the old key never goes to the new member list.
    if (frame.to.kind === "mesh" && (frame.to.epoch ?? 0) !== conn.keyEpoch)
      return this.refuseStaleEpoch(conn, frame.id);
    const unknown = ids.filter((id) => !members.has(id));
    if (unknown.length > 0) {
      sendFrame(conn, {
        v: PROTOCOL_VERSION,
        type: "error",
        code: "NOT_FOUND",
        message: `not a member of this mesh: ${unknown.join(", ")}`,
        id: frame.id,
      });
      return;
    }
    const recipients =
      frame.to.kind === "mesh"
        ? [...members.keys()].filter((id) => id !== conn.memberId)
        : ids.filter((id) => id !== conn.memberId);
    const message: Outgoing = {
      id: uuidv7(),
      meshId: conn.meshId,
      senderMemberId: conn.memberId,
      targetSpec: frame.to,
      priority: frame.priority,
      ciphertext: Buffer.from(frame.ciphertext, "base64url"),
      recipients,
      // The frame's id: a resend of the same send (after a reconnect) is answered, not stored again.
      clientId: frame.id,
      text: frame.ciphertext,
      ticket,
    };
    // The sends of a connection enter the batches in the order they arrived (the earlier ones may
    // still be reading their recipients), and none after one that was refused.
    const turn = this.order.gate(ticket);
    if (turn) await turn;
    const before = this.order.heldBy(ticket);
    if (before) return this.refuseHeld(conn, frame.id, before);
    let stored: Stored;
    try {
      const storing = this.sends.add(message);
      pass();
      stored = await storing;
    } catch (error) {
      this.order.refused(ticket, frame.id, "SERVICE_UNAVAILABLE");
      return this.refuse(conn, frame.id, "SERVICE_UNAVAILABLE", "the message was not stored; send it again", error);
    }
    if (stored === HELD) {
      const block = this.order.heldBy(ticket);
      if (block) return this.refuseHeld(conn, frame.id, block);
      throw new Error("a send was held back without a block");
    }
    if (!stored) {
      // The sender was deleted (its mesh, or its account) while the batch waited: nothing was stored.
      closeWith(conn.ws, "FORBIDDEN", "membership ended");
      return;
    }
    sendFrame(conn, {
      v: PROTOCOL_VERSION,
      type: "sent",
      id: frame.id,
      messageId: stored.id,
      createdAt: new Date(stored.createdAtMs).toISOString(),
      recipients: recipients.length,
    });
    this.deps.metrics.sendStoreSeconds.observe((performance.now() - started) / 1000);
    // A resend: its recipients have (or will get) the first one from the queue.
    if (stored.duplicate || !stored.out) return;
    this.deps.metrics.messagesSent.inc();
    this.deps.metrics.messageBytes.inc(message.ciphertext.length);
    this.delivery.deliverPrepared(stored.out, "local", stored.seq);
  }

  /** An `ack` frame: forget the messages on this node's connections of the member, then persist (batched). */
  ack(conn: PeerConnection, messageIds: readonly string[]): void {
    for (const c of this.deps.registry.ofMember(conn.meshId, conn.memberId))
      for (const id of messageIds) c.inflight.delete(id);
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
   * One call stores the batch, its recipients and audit events, and notifies the other nodes at commit;
   * each new message's frame is serialised once, for this node's recipients and for the linked nodes
   * (handed to them at once, as one batch, with the seq range its notification gives).
   */
  private async store(batch: Outgoing[]): Promise<Stored[]> {
    // A send whose connection had an earlier one refused since it joined the batch (the batch before
    // failed) stays out of it: it is refused too, and comes again after the refused one.
    const held = batch.some((item) => this.order.heldBy(item.ticket));
    const items = held ? batch.filter((item) => !this.order.heldBy(item.ticket)) : batch;
    if (items.length === 0) return batch.map(() => HELD);
    const started = performance.now();
    let stored;
    try {
      stored = await insertMessages(this.deps.storePool, items, this.options.ttlMs, {
        channel: MESSAGES_CHANNEL,
        nodeId: this.deps.nodeId,
      });
    } catch (error) {
      // Marked before the next batch starts, so none of these connections' later sends goes in it.
      for (const item of items) this.order.refused(item.ticket, item.clientId ?? "", "SERVICE_UNAVAILABLE");
      throw error;
    }
    this.deps.metrics.storeBatchSeconds.observe((performance.now() - started) / 1000);
    this.deps.metrics.storeBatchMessages.observe(items.length);
    const fresh: PreparedMessage[] = [];
    let low: string | undefined;
    let high: string | undefined;
    // Objects built field by field (no spreads of the send and the frame: this loop runs for every message).
    const results = stored.map((s, i): Stored => {
      if (!s || s.duplicate) return s;
      const item = items[i]!;
      const frame = outFrame(
        {
          id: s.id,
          seq: s.seq,
          senderMemberId: item.senderMemberId,
          targetSpec: item.targetSpec,
          priority: item.priority,
          createdAtMs: s.createdAtMs,
          ciphertext: item.text,
        },
        1,
      );
      const out: PreparedMessage = {
        id: frame.id,
        priority: frame.priority,
        createdAtMs: frame.createdAtMs,
        text: frame.text,
        meshId: item.meshId,
        recipients: item.recipients,
      };
      fresh.push(out);
      if (low === undefined || seqBefore(s.seq, low)) low = s.seq;
      if (high === undefined || seqBefore(high, s.seq)) high = s.seq;
      return { id: s.id, seq: s.seq, createdAtMs: s.createdAtMs, out };
    });
    if (low !== undefined && high !== undefined) this.crossNode.publish(low, high, fresh);
    if (!held) return results;
    let next = 0;
    return batch.map((item) => (items[next] === item ? results[next++]! : HELD));
  }

  /** Refuses a send because an earlier one of its connection was refused and has not come again. */
  private refuseHeld(conn: PeerConnection, id: string, block: SendBlock): void {
    sendFrame(conn, {
      v: PROTOCOL_VERSION,
      type: "error",
      code: block.code,
      message: `send_order: an earlier send of this connection (id ${block.id}) was not stored; send it again first, then this one`,
      id,
    });
  }

  private refuse(conn: PeerConnection, id: string, code: "SERVICE_UNAVAILABLE", message: string, error: unknown): void {
    this.deps.log.warn({ event: "send_failed", ...safeErrorFields(error) }, "message not stored");
    sendFrame(conn, { v: PROTOCOL_VERSION, type: "error", code, message, id });
  }
}
