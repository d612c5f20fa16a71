import type { Prisma } from "@/server/core/db";
import { joinLock, lockStatement } from "@/server/core/locks";

// Bans (docs/mesh-api.md, "Bans"; issue 41). A ban holds per key and per person:
// - a banned peer key cannot join the mesh again with any invite (`peer_banned`);
// - a banned person (the account behind a browser member, or behind a device that joined with the
//   account's command-line token) cannot join in the browser nor with any key sent with their token
//   (`banned`); every live member of theirs in the mesh ends with the ban, and every key they joined
//   with is banned too;
// - a new anonymous key is nobody we can tell apart, so the invite a banned member joined with is
//   revoked by the ban (the members who already joined with it stay): the banned peer cannot come back
//   through it under a new key. Any other invite they still hold was issued by the owner or a mesh admin,
//   who revokes it when that matters.
// The mesh's owner cannot be banned from their own mesh: a ban of one of the owner's devices is a ban of
// its key only.

type BanTx = Pick<Prisma.TransactionClient, "meshBan">;

/** True when the peer key is banned from the mesh (the join check). */
export async function isBanned(tx: BanTx, meshId: string, peerPubkey: string): Promise<boolean> {
  return (await tx.meshBan.count({ where: { meshId, peerPubkey } })) > 0;
}

/** True when the person (user id) is banned from the mesh (the join checks, browser and key with token). */
export async function isUserBanned(tx: BanTx, meshId: string, userId: string): Promise<boolean> {
  return (await tx.meshBan.count({ where: { meshId, userId } })) > 0;
}

/**
 * Whether the person is banned, read under their join lock (the browser join's, which a ban of the
 * person also takes first: removeMember): a join with their token and a ban of them cannot cross.
 */
export async function personBannedUnderLock(
  tx: Pick<Prisma.TransactionClient, "meshBan" | "$executeRawUnsafe">,
  meshId: string,
  userId: string,
): Promise<boolean> {
  const lock = lockStatement("pg_advisory_xact_lock", joinLock(meshId, userId));
  await tx.$executeRawUnsafe(lock.text, ...lock.values);
  return isUserBanned(tx, meshId, userId);
}

/**
 * Writes the ban of `keys` and, when given, of the person `userId` (each key row carries the user id; a
 * person without a key gets one row of their own). Returns whether anything new was banned.
 */
export async function writeBan(
  tx: BanTx,
  ban: { meshId: string; keys: readonly string[]; userId: string | null; bannedByUserId: string },
): Promise<boolean> {
  const { meshId, userId, bannedByUserId } = ban;
  const keys = [...new Set(ban.keys)];
  const created = await tx.meshBan.createMany({
    data: keys.map((peerPubkey) => ({ meshId, peerPubkey, userId, bannedByUserId })),
    skipDuplicates: true,
  });
  let added = created.count > 0;
  if (userId !== null) {
    // Keys banned before on their own now stand for the person too.
    const linked = await tx.meshBan.updateMany({
      where: { meshId, peerPubkey: { in: keys }, userId: null },
      data: { userId },
    });
    added ||= linked.count > 0;
    if (!(await isUserBanned(tx, meshId, userId))) {
      await tx.meshBan.create({ data: { meshId, userId, bannedByUserId } });
      added = true;
    }
  }
  return added;
}
