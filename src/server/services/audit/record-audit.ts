import type { Prisma } from "@/server/core/db";
import type { AUDIT_TYPES } from "./audit-types";

type AuditType = (typeof AUDIT_TYPES)[number];

/** The mesh of an audit event does not exist (any more). */
export class AuditMeshMissing extends Error {
  constructor(meshId: string) {
    super(`audit event for a mesh that does not exist: ${meshId}`);
  }
}

/**
 * Writes one audit event: metadata only, never plaintext, ciphertext, tokens or keys. The table has no
 * foreign key to the mesh (the broker writes one event per message, prisma/schema.prisma): the mesh row
 * is locked here as that key's check did, so a mesh deleted meanwhile fails the transaction, and one
 * being deleted waits for it (and then deletes this event with the mesh's others).
 */
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
  const mesh = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id::text FROM meshes WHERE id = ${event.meshId}::uuid FOR KEY SHARE`;
  if (mesh.length === 0) throw new AuditMeshMissing(event.meshId);
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
