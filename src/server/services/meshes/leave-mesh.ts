import type { ServiceContext } from "../context";
import type { Prisma } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { PeerActor, UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import { endMembership, raiseKeyEpoch, sessionMembersOf } from "./members";
import { type TMeshIdInput } from "./schemas";

interface Leaving {
  id: string;
  displayName: string;
  peerPubkey: string | null;
  userId: string | null;
}

/**
 * Ends members of one mesh that leave: revokedAt, presences, queues, audit `member_left` each, the key
 * epoch raised once, and every broker node told (their sockets close 4403 `left`). Leaving because the
 * account is deleted records the reason instead of the name (services/account/delete-account.ts).
 */
export async function endLeaving(
  tx: Prisma.TransactionClient,
  meshId: string,
  leaving: readonly Leaving[],
  now: Date,
  why: "left" | "account_deleted" = "left",
  keyEpoch: "raise" | "keep" = "raise",
): Promise<void> {
  // Their session members leave with them (docs/cli.md, "One identity per session").
  const sessions = await sessionMembersOf(
    tx,
    leaving.map((m) => m.id),
  );
  const members = [...leaving, ...sessions];
  for (const m of members) {
    await endMembership(tx, m.id, now);
    const device = m.peerPubkey !== null;
    await recordAudit(tx, {
      meshId,
      type: "member_left",
      actorUserId: m.userId,
      actorMemberId: m.id,
      metadata: why === "left" ? { displayName: m.displayName, device } : { reason: why, device },
    });
  }
  const ended = members.map((m) => ({ t: "ended" as const, meshId, memberId: m.id, reason: "left" as const }));
  // A session member that ends alone knew no key its parent does not hold (the parent stays): no new epoch.
  if (keyEpoch === "keep") return notifyBrokers(tx, ...ended);
  const epoch = await raiseKeyEpoch(tx, meshId);
  // The new epoch before the ends, as for a removal (members.ts).
  await notifyBrokers(tx, { t: "epoch", meshId, epoch }, ...ended);
}

export const leavingSelect = {
  id: true,
  meshId: true,
  displayName: true,
  peerPubkey: true,
  userId: true,
  parentMemberId: true,
  mesh: { select: { ownerUserId: true } },
} as const;

/**
 * Leaves a mesh: every live member of the actor in it (the one joined in the browser and each linked
 * command-line device) leaves at once. The owner cannot leave (archive instead).
 */
export async function leaveMesh(ctx: ServiceContext<UserActor>, input: TMeshIdInput) {
  const { meshId } = input;
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const members = await tx.member.findMany({
      where: { meshId, userId: ctx.actor.userId, revokedAt: null },
      orderBy: { joinedAt: "asc" },
      select: leavingSelect,
    });
    if (members.length === 0) throw new AppError("NOT_FOUND", "mesh_not_found");
    if (members[0]!.mesh.ownerUserId === ctx.actor.userId) throw new AppError("CONFLICT", "owner_cannot_leave");
    await endLeaving(tx, meshId, members, now);
    return { meshId, revokedAt: now, members: members.length };
  });
}

/**
 * `mesh leave` (the broker's POST /leave, signed with the peer key): this one device, the actor, leaves;
 * the user's other members stay. NOT_FOUND when it is no live member of the mesh.
 */
export async function leaveAsPeer(ctx: ServiceContext<PeerActor>) {
  const input = { meshId: ctx.actor.meshId, memberId: ctx.actor.memberId };
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const member = await tx.member.findFirst({
      where: { id: input.memberId, meshId: input.meshId, revokedAt: null, peerPubkey: { not: null } },
      select: leavingSelect,
    });
    if (!member) throw new AppError("NOT_FOUND", "member_not_found");
    await endLeaving(tx, input.meshId, [member], now, "left", member.parentMemberId === null ? "raise" : "keep");
    return { meshId: input.meshId, memberId: member.id, revokedAt: now };
  });
}
