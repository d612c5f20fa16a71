import type { MemberRole } from "@/generated/prisma/enums";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import type { ServiceContext } from "../context";
import type { TUserJoinInput } from "./join-as-user.schema";
import { personBannedUnderLock } from "../meshes/members-bans";
import { inviteOfToken } from "./join-mesh";
import { useInvite } from "./use-invite";

/**
 * Joins the signed-in user to a mesh with an invite, as the broker's `/join` joins a peer: the same
 * invite checks, use cap (one conditional UPDATE) and audit. The member is the user's own, without a
 * peer key (their command-line devices are further members linked to them); a user already in the mesh
 * (as owner, in the browser or from a linked device) uses nothing, and one who left gets their member
 * back. Refusals throw AppError with the refusal's code (ERROR_MAP: its tRPC code, and 409 for what the
 * broker answers 410, as tRPC has no 410), whose message is the code, as the broker's `/join` gives it in `error.code`.
 */
export async function joinAsUser(ctx: ServiceContext<UserActor>, input: TUserJoinInput) {
  const { db, actor } = ctx;
  const now = ctx.now();
  const found = await inviteOfToken(db, input.token, now);
  if (!found.ok) throw new AppError(found.reason);
  const { invite } = found;
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { name: true, email: true } });
  if (!user) throw new AppError("UNAUTHORIZED", "user_not_found");
  const displayName = input.displayName ?? user.name ?? user.email?.split("@")[0] ?? "member";
  const done = (memberId: string, role: MemberRole, rejoined: boolean) => ({
    meshId: invite.meshId,
    meshSlug: invite.mesh.slug,
    memberId,
    role,
    displayName,
    rejoined,
  });
  return db.$transaction(async (tx) => {
    // One join of this user into this mesh at a time (the lock, whatever the invite): a second one waits,
    // then finds the member the first made and counts no use. A banned person stays out (members-bans.ts).
    if (await personBannedUnderLock(tx, invite.meshId, actor.userId)) throw new AppError("banned");
    const active = await tx.member.findFirst({
      where: { meshId: invite.meshId, userId: actor.userId, revokedAt: null },
      orderBy: [{ peerPubkey: { sort: "asc", nulls: "first" } }, { joinedAt: "asc" }],
      select: { id: true, role: true, displayName: true },
    });
    if (active) return { ...done(active.id, active.role, true), displayName: active.displayName };
    const refused = await useInvite(tx, invite.id, now);
    if (refused) throw new AppError(refused);
    const own = await tx.member.findFirst({
      where: { meshId: invite.meshId, userId: actor.userId, peerPubkey: null },
      select: { id: true },
    });
    const data = { revokedAt: null, role: invite.role, displayName, inviteId: invite.id };
    const member = own
      ? await tx.member.update({ where: { id: own.id }, data, select: { id: true } })
      : await tx.member.create({
          data: { ...data, meshId: invite.meshId, userId: actor.userId },
          select: { id: true },
        });
    await recordAudit(tx, {
      meshId: invite.meshId,
      type: "member_joined",
      actorUserId: actor.userId,
      actorMemberId: member.id,
      metadata: { inviteId: invite.id, role: invite.role, via: "web" },
    });
    await notifyBrokers(tx, { t: "joined", meshId: invite.meshId, memberId: member.id });
    return done(member.id, invite.role, false);
  });
}
