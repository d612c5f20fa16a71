import { Prisma, sqlRows } from "@/server/core/db";
import type { PeerActor } from "../actor";
import type { ServiceContext } from "../context";

/** Where one recipient's copy of a message is (docs/protocol.md, "Receipts"). */
export type RecipientState = "queued" | "delivered" | "gone";

export interface MessageDeliveryStatus {
  messageId: string;
  createdAt: string;
  expiresAt: string;
  deliveredAt: string | null;
  recipientCount: number;
  recipients: { memberId: string; state: RecipientState; attempts: number; lastDeliveredAt: string | null }[];
}

type Row = {
  envelope_id: string;
  created_ms: number;
  expires_ms: number;
  delivered_ms: number | null;
  member_id: string | null;
  attempts: number | null;
  last_ms: number | null;
  pending: boolean | null;
  live: boolean | null;
  total: number;
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The delivery state, per recipient, of messages the peer itself sent (the `message_status` frame). The
 * rule is in the query: only envelopes whose sender is the asking member, in its mesh; another member's
 * message, an expired one and an unknown id all answer nothing, alike. Recipients are those of the
 * queue rows still waiting, the members named by a direct message, and for a whole-mesh message the
 * members who were live then (joined with a peer key before it was stored, not removed by then): the
 * broker keeps no list of who acknowledged, only who has not yet. A recipient without a queue row is
 * `delivered` while it is still a member, `gone` once it left (its queue was dropped with it, so nothing
 * is claimed). At most `maxRecipients` are listed per message, the waiting ones first.
 */
export async function messageStatus(
  ctx: ServiceContext<PeerActor>,
  input: { messageIds: readonly string[]; maxRecipients: number },
): Promise<MessageDeliveryStatus[]> {
  if (input.messageIds.length === 0) return [];
  const ms = (col: string) => Prisma.raw(`(extract(epoch FROM ${col}) * 1000)::float8`);
  const rows = await sqlRows<Row>(
    ctx.db,
    Prisma.sql`
    WITH env AS (
      SELECT e.id, e.mesh_id, e.sender_member_id, e.target_spec, e.created_at, e.expires_at
      FROM message_envelopes e
      WHERE e.id = ANY(${[...input.messageIds]}::uuid[])
        AND e.sender_member_id = ${ctx.actor.memberId}::uuid AND e.mesh_id = ${ctx.actor.meshId}::uuid
        AND e.expires_at > (now() AT TIME ZONE 'UTC')
    ),
    rcpt AS (
      SELECT DISTINCT env.id AS envelope_id, t.member_id
      FROM env CROSS JOIN LATERAL (
        SELECT (env.target_spec->>'memberId')::uuid AS member_id WHERE env.target_spec->>'kind' = 'peer'
        UNION ALL
        SELECT jsonb_array_elements_text(env.target_spec->'memberIds')::uuid WHERE env.target_spec->>'kind' = 'peers'
        UNION ALL
        SELECT m.id FROM members m
        WHERE env.target_spec->>'kind' = 'mesh' AND m.mesh_id = env.mesh_id AND m.id <> env.sender_member_id
          AND m.peer_pubkey IS NOT NULL AND m.joined_at <= env.created_at
          AND (m.revoked_at IS NULL OR m.revoked_at > env.created_at)
        UNION ALL
        SELECT r.member_id FROM message_recipients r WHERE r.envelope_id = env.id
      ) t
    ),
    listed AS (
      SELECT rc.envelope_id, rc.member_id, q.attempts, ${ms("q.last_delivered_at")} AS last_ms,
             q.member_id IS NOT NULL AS pending, (m.id IS NOT NULL AND m.revoked_at IS NULL) AS live,
             row_number() OVER (PARTITION BY rc.envelope_id ORDER BY (q.member_id IS NULL), rc.member_id) AS n,
             count(*) OVER (PARTITION BY rc.envelope_id)::int AS total
      FROM rcpt rc
      LEFT JOIN message_recipients q ON q.envelope_id = rc.envelope_id AND q.member_id = rc.member_id
      LEFT JOIN members m ON m.id = rc.member_id
    )
    SELECT env.id::text AS envelope_id, ${ms("env.created_at")} AS created_ms, ${ms("env.expires_at")} AS expires_ms,
           ${ms("d.delivered_at")} AS delivered_ms, l.member_id::text AS member_id, l.attempts, l.last_ms, l.pending,
           l.live, coalesce(l.total, 0) AS total
    FROM env
    LEFT JOIN message_deliveries d ON d.envelope_id = env.id
    LEFT JOIN listed l ON l.envelope_id = env.id AND l.n <= ${input.maxRecipients}
    ORDER BY env.id, l.n`,
  );
  const byId = new Map<string, MessageDeliveryStatus>();
  for (const r of rows) {
    let status = byId.get(r.envelope_id);
    if (!status) {
      status = {
        messageId: r.envelope_id,
        createdAt: iso(r.created_ms)!,
        expiresAt: iso(r.expires_ms)!,
        deliveredAt: iso(r.delivered_ms),
        recipientCount: r.total,
        recipients: [],
      };
      byId.set(r.envelope_id, status);
    }
    if (r.member_id === null) continue;
    const state: RecipientState = r.pending ? "queued" : r.live ? "delivered" : "gone";
    status.recipients.push({
      memberId: r.member_id,
      state,
      attempts: r.attempts ?? 0,
      lastDeliveredAt: iso(r.last_ms),
    });
  }
  // In the order asked.
  return input.messageIds.flatMap((id) => byId.get(id) ?? []);
}
