import type { Prisma } from "@/server/core/db";

type AuditType =
  | "mesh_created"
  | "mesh_archived"
  | "invite_created"
  | "invite_revoked"
  | "member_joined"
  | "member_left"
  | "message_sent"
  | "status_changed";

/** Writes one audit event: metadata only, never plaintext, ciphertext, tokens or keys. */
export async function recordAudit(
  tx: Prisma.TransactionClient,
  event: {
    meshId: string;
    type: AuditType;
    actorUserId?: string | null;
    actorMemberId?: string | null;
    metadata?: Record<string, string | number | boolean | null>;
  },
): Promise<void> {
  await tx.auditEvent.create({
    data: {
      meshId: event.meshId,
      eventType: event.type,
      actorUserId: event.actorUserId ?? null,
      actorMemberId: event.actorMemberId ?? null,
      metadata: event.metadata ?? {},
    },
  });
}
