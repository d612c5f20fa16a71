import { queuedInRange } from "../store/message-store";
import { decodeRelay, encodeRelay, type PreparedMessage } from "../cluster/relay-format";
import { safeErrorFields } from "../http/request";
import type { Delivery } from "./delivery";
import type { HubDeps, StoredNotice } from "./hub-types";
import { outFrame } from "./message-frames";
import { NoticeGate } from "./notices";

/** How long another node's notification waits for the copy of its batch on their link before it is read back. */
export const RELAY_GRACE_MS = 2_000;

/**
 * Messages between nodes (docs/protocol.md, "Several nodes"): this node's new batches go to the nodes
 * linked to it; the other nodes' batches come on their links, or are read back from the database when
 * their notification finds no link (or the link's copy does not come).
 */
export class CrossNode {
  private readonly gate: NoticeGate;
  private reads: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: HubDeps,
    private readonly delivery: Delivery,
  ) {
    this.gate = new NoticeGate({
      graceMs: RELAY_GRACE_MS,
      linked: (node) => deps.links.receivesFrom(node),
      read: (notice) => this.read(notice),
    });
    deps.links.on("relay", (fromNode, data) => this.onRelay(fromNode, data));
    deps.links.on("linkDown", (fromNode) => this.onLinkDown(fromNode));
  }

  /** Whether any node takes this node's batches (else their frames need not be prepared for it). */
  get linked(): boolean {
    return this.deps.links.hasSubscribers;
  }

  /** Hands a stored batch's new messages (seq range `low`..`high`) to the linked nodes. */
  publish(low: string, high: string, messages: readonly PreparedMessage[]): void {
    if (!this.deps.links.hasSubscribers || messages.length === 0) return;
    this.deps.links.publish(encodeRelay(low, high, messages));
    this.deps.metrics.relayed.inc({ direction: "sent" }, messages.length);
  }

  /** A notification from any node; this node delivers what is for its own connections. */
  onNotification(payload: string): void {
    let notice: StoredNotice;
    try {
      notice = JSON.parse(payload) as StoredNotice;
    } catch {
      return;
    }
    if (
      notice.n === this.deps.nodeId ||
      !Array.isArray(notice.m) ||
      !notice.m.some((meshId) => this.deps.registry.countInMesh(meshId) > 0)
    )
      return;
    this.gate.notice(notice);
  }

  /** A part of another node's batch, on the link from it: delivered to this node's connections as it came. */
  onRelay(fromNode: string, data: Buffer): void {
    const chunk = decodeRelay(data);
    if (!chunk) {
      this.deps.log.warn({ event: "relay_malformed", node: fromNode }, "unreadable batch on a cluster link");
      return;
    }
    this.deps.metrics.relayed.inc({ direction: "received" }, chunk.messages.length);
    // The batch's first seq bounds each of its messages' from below.
    for (const message of chunk.messages) this.delivery.deliverPrepared(message, "relayed", chunk.a);
    if (chunk.last) this.gate.relayedBatch(fromNode, chunk.a, chunk.b);
  }

  /** The link from a node closed: its notifications waiting for their copies are read back now. */
  onLinkDown(fromNode: string): void {
    this.gate.linkDown(fromNode);
  }

  /** Stops waiting for copies, and waits for the reads in flight (shutdown). */
  async drain(): Promise<void> {
    this.gate.stop();
    await this.reads;
  }

  /** Reads another node's batch back from the database, for this node's connections of its meshes. */
  private read(notice: StoredNotice): void {
    // One at a time, in the order they came, so messages keep their order across nodes.
    this.reads = this.reads.then(async () => {
      const members = notice.m.flatMap((meshId) => this.deps.registry.inMesh(meshId).map((c) => c.memberId));
      if (members.length === 0) return;
      this.deps.metrics.noticeReads.inc();
      try {
        const rows = await queuedInRange(this.deps.pool, [...new Set(members)], notice.a, notice.b);
        for (const row of rows)
          for (const c of this.deps.registry.ofMember(row.meshId, row.memberId))
            this.delivery.deliver(c, outFrame(row, 1), "notified", row.seq);
      } catch (error) {
        this.deps.log.warn(
          { event: "notice_failed", ...safeErrorFields(error) },
          "could not read notified messages; redelivery will",
        );
      }
    });
  }
}
