import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";

/** Revokes an invite; the mesh owner or the invite's creator may. Revoking twice changes nothing. */
export async function revokeInvite(ctx: ServiceContext<UserActor>, input: { inviteId: string }) {
  const { inviteId } = input;
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const invite = await tx.invite.findFirst({
      where: {
        id: inviteId,
        OR: [
          { mesh: { ownerUserId: ctx.actor.userId } },
          {
            createdByUserId: ctx.actor.userId,
            mesh: { members: { some: { userId: ctx.actor.userId, revokedAt: null } } },
          },
        ],
      },
      select: { id: true, meshId: true, revokedAt: true },
    });
    if (!invite) throw new AppError("NOT_FOUND", "invite_not_found");
    if (invite.revokedAt) return { inviteId, revokedAt: invite.revokedAt };
    await tx.invite.update({ where: { id: inviteId }, data: { revokedAt: now } });
    await recordAudit(tx, {
      meshId: invite.meshId,
      type: "invite_revoked",
      actorUserId: ctx.actor.userId,
      metadata: { inviteId },
    });
    return { inviteId, revokedAt: now };
  });
}
