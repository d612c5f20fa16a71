import type { Prisma } from "@/server/core/db";

/** The visibility rule of Document 3, for use inside every query: owner, or a non-revoked member. */
export function visibleTo(userId: string): Prisma.MeshWhereInput {
  return { OR: [{ ownerUserId: userId }, { members: { some: { userId, revokedAt: null } } }] };
}
