import type { Prisma } from "@/server/core/db";

/** The display name of every review bot (peers see it in `mesh peers`, the mesh page in its members). */
export const REVIEW_BOT_NAME = "Review bot";

/**
 * The rule of a live bot, for use inside queries: its member is not revoked and its mesh not archived
 * (removal, a ban and archiving end it as they end any member; deleting the mesh deletes its row).
 */
export const LIVE_BOT: Prisma.ReviewBotWhereInput = { member: { revokedAt: null }, mesh: { archivedAt: null } };

/** The mesh's live bot, if any. */
export async function liveBot(tx: Prisma.TransactionClient, meshId: string) {
  return tx.reviewBot.findFirst({
    where: { meshId, ...LIVE_BOT },
    select: { id: true, memberId: true, createdAt: true, member: { select: { displayName: true, peerPubkey: true } } },
  });
}
