// The device's history as the commands use it (docs/cli.md, "History"): opened with the retention of
// the environment, fed by every session that sends or receives, and read back into receipt reports.
import type { TMessagePriority, TMessageStatus, TPeerInfo, TTargetSpec } from "../protocol/frames";
import {
  History,
  retentionOf,
  type MeshClient,
  type ReceiptState,
  type SentReceipt,
  type TMeshConfig,
} from "../client";
import { CliFailure, storeOf, type CliIo } from "./io";

/** The history of the mesh's member on this device; a bad retention variable is a failure naming it. */
export function historyOf(io: CliIo, config: TMeshConfig): History {
  let retention;
  try {
    retention = retentionOf(io.env);
  } catch (error) {
    throw new CliFailure((error as Error).message);
  }
  return new History(storeOf(io).home, config.memberId, retention);
}

/**
 * Records what a receiving session gets: each message (before the broker is acked: the client acks
 * after its listeners ran) and each read receipt of our messages.
 */
export function keepHistory(client: MeshClient, history: History, warn: (line: string) => void): void {
  const safely = (what: string, work: () => void) => {
    try {
      work();
    } catch (error) {
      // A full disk must not stop the session: the message is still shown; the history misses it.
      warn(`history: ${what} not recorded (${(error as Error).message})`);
    }
  };
  client.on("message", (m) => safely("a message", () => history.recordReceived(m)));
  client.on("receipt", (r) => safely("a receipt", () => history.recordReceipt(r)));
}

/** Records a message this member sent, once the broker stored it. */
export function recordSent(
  history: History,
  config: TMeshConfig,
  sent: SentReceipt,
  m: {
    text: string;
    to?: readonly string[];
    peers?: readonly TPeerInfo[];
    priority: TMessagePriority;
    replyTo?: string;
  },
): void {
  const ids = [...new Set(m.to ?? [])];
  const to: TTargetSpec =
    ids.length === 0
      ? { kind: "mesh" }
      : ids.length === 1 && ids[0]
        ? { kind: "peer", memberId: ids[0] }
        : { kind: "peers", memberIds: ids };
  const toNames = ids.length
    ? Object.fromEntries(ids.map((id) => [id, m.peers?.find((p) => p.memberId === id)?.displayName ?? id.slice(0, 8)]))
    : undefined;
  history.recordSent({
    id: sent.messageId,
    at: sent.createdAt,
    from: config.memberId,
    fromName: config.displayName,
    to,
    toNames,
    priority: m.priority,
    text: m.text,
    replyTo: m.replyTo ?? null,
    recipients: sent.recipients,
  });
}

/** One recipient in a receipt report. */
export interface RecipientReport {
  member_id: string;
  name: string | null;
  state: ReceiptState;
  delivered_at: string | null;
  read_at: string | null;
}

/** What a sender can tell of one message it sent (the `message_status` tool, `mesh status <id>`). */
export interface MessageReport {
  message_id: string;
  sent_at: string | null;
  to: "mesh" | string[];
  text: string | null;
  /** Recipients the broker stored it for. */
  recipient_count: number | null;
  /** When every recipient had it (the broker's word). */
  delivered_at: string | null;
  /** Whether the broker still holds it (false: expired, or not one of this member's messages). */
  at_broker: boolean;
  recipients: RecipientReport[];
  counts: Record<ReceiptState, number>;
}

const RANK: Record<ReceiptState, number> = { queued: 0, gone: 1, delivered: 2, read: 3 };

/**
 * Joins what the broker says now (delivery, per recipient) with what the history holds (read receipts,
 * and states the broker said before it let the message expire). Unknown ids come back as reports
 * without recipients. Records what the broker said into the history.
 */
export async function messageReports(
  ids: readonly string[],
  history: History,
  client: MeshClient | undefined,
  /** A member's display name, when known. */
  nameOfMember: (memberId: string) => string | null | undefined,
): Promise<MessageReport[]> {
  let statuses: TMessageStatus[] = [];
  if (client) {
    statuses = await client.messageStatus(ids);
    history.recordDelivery(statuses);
  }
  const nameOf = (id: string, fallback?: string) => nameOfMember(id) ?? fallback ?? null;
  return ids.map((id) => {
    const entry = history.get(id);
    const status = statuses.find((s) => s.messageId === id);
    const byMember = new Map<string, RecipientReport>();
    for (const r of status?.recipients ?? [])
      byMember.set(r.memberId, {
        member_id: r.memberId,
        name: nameOf(r.memberId, entry?.toNames?.[r.memberId]),
        state: r.state,
        delivered_at: r.state === "delivered" ? (status?.deliveredAt ?? null) : null,
        read_at: null,
      });
    for (const [memberId, r] of Object.entries(entry?.dir === "out" ? (entry.receipts ?? {}) : {})) {
      const known = byMember.get(memberId);
      const state = known && RANK[known.state] > RANK[r.state] ? known.state : r.state;
      byMember.set(memberId, {
        member_id: memberId,
        name: known?.name ?? nameOf(memberId, entry?.toNames?.[memberId]),
        state,
        delivered_at: known?.delivered_at ?? r.deliveredAt ?? null,
        read_at: r.readAt ?? null,
      });
    }
    const recipients = [...byMember.values()].sort(
      (a, b) => RANK[b.state] - RANK[a.state] || (a.name ?? a.member_id).localeCompare(b.name ?? b.member_id),
    );
    const counts: Record<ReceiptState, number> = { queued: 0, gone: 0, delivered: 0, read: 0 };
    for (const r of recipients) counts[r.state] += 1;
    const target = entry?.to;
    return {
      message_id: id,
      sent_at: status?.createdAt ?? entry?.at ?? null,
      to:
        !target || target.kind === "mesh"
          ? "mesh"
          : (target.kind === "peer" ? [target.memberId] : target.memberIds).map(
              (m) => nameOf(m, entry?.toNames?.[m]) ?? m,
            ),
      text: entry?.dir === "out" ? entry.text : null,
      recipient_count: status?.recipientCount ?? entry?.recipients ?? null,
      delivered_at: status?.deliveredAt ?? entry?.deliveredAt ?? null,
      at_broker: status !== undefined,
      recipients,
      counts,
    };
  });
}
