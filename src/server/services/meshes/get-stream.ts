import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { visibleTo } from "./access";
import type { MeshDeps } from "./deps";
import { ZMeshIdInput, type TMeshIdInput } from "./schemas";

export const STREAM_LIMITS = { presences: 20, envelopes: 50, auditEvents: 20 } as const;
export const CIPHERTEXT_PREVIEW_CHARS = 24;

/**
 * The live view of a mesh (same visibility rule as its detail): up to 20 live presences, the 50
 * newest envelopes as metadata plus a 24-character ciphertext preview, and the 20 newest audit events.
 */
export async function getMeshStream(deps: Pick<MeshDeps, "db">, actor: UserActor, raw: TMeshIdInput) {
  const { meshId } = ZMeshIdInput.parse(raw);
  const mesh = await deps.db.mesh.findFirst({ where: { id: meshId, ...visibleTo(actor.userId) }, select: { id: true } });
  if (!mesh) throw new AppError("NOT_FOUND", "mesh_not_found");
  const [presences, envelopes, auditEvents] = await Promise.all([
    deps.db.presence.findMany({
      where: { meshId, disconnectedAt: null },
      orderBy: { connectedAt: "desc" },
      take: STREAM_LIMITS.presences,
      select: { id: true, memberId: true, status: true, statusText: true, connectedAt: true, lastSeenAt: true, member: { select: { displayName: true } } },
    }),
    // Only the first bytes of the ciphertext leave the database: enough for the preview, never more.
    deps.db.$queryRaw<
      { id: string; senderMemberId: string; senderDisplayName: string; targetSpec: unknown; priority: string; createdAt: Date; deliveredAt: Date | null; byteSize: number; head: Buffer }[]
    >`
      SELECT e.id, e.sender_member_id AS "senderMemberId", m.display_name AS "senderDisplayName",
             e.target_spec AS "targetSpec", e.priority::text AS priority, e.created_at AS "createdAt",
             e.delivered_at AS "deliveredAt", e.byte_size AS "byteSize", substring(e.ciphertext from 1 for 18) AS head
      FROM message_envelopes e JOIN members m ON m.id = e.sender_member_id
      WHERE e.mesh_id = ${meshId}::uuid
      ORDER BY e.created_at DESC, e.seq DESC
      LIMIT ${STREAM_LIMITS.envelopes}`,
    deps.db.auditEvent.findMany({
      where: { meshId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: STREAM_LIMITS.auditEvents,
      select: { id: true, eventType: true, createdAt: true, actorUserId: true, actorMemberId: true, metadata: true },
    }),
  ]);
  return {
    presences: presences.map(({ member, ...p }) => ({ ...p, displayName: member.displayName })),
    envelopes: envelopes.map(({ head, ...e }) => ({
      ...e,
      sender: { memberId: e.senderMemberId, displayName: e.senderDisplayName },
      ciphertextPreview: Buffer.from(head).toString("base64").slice(0, CIPHERTEXT_PREVIEW_CHARS),
    })),
    auditEvents: auditEvents.map((a) => ({ ...a, id: a.id.toString() })),
  };
}
