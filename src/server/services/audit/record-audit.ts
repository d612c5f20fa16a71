import type { Prisma } from "@/server/core/db";
import type { AUDIT_TYPES } from "../admin/schemas";

type AuditType = (typeof AUDIT_TYPES)[number];

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
