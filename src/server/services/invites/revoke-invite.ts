import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { nowOf, type MeshDeps } from "../meshes/deps";
import { ZInviteIdInput } from "../meshes/schemas";

/** Revokes an invite; the mesh owner or the invite's creator may. Revoking twice changes nothing. */
export async function revokeInvite(deps: Pick<MeshDeps, "db" | "now">, actor: UserActor, raw: { inviteId: string }) {
  const { inviteId } = ZInviteIdInput.parse(raw);
  const now = nowOf(deps);
  return deps.db.$transaction(async (tx) => {
    const invite = await tx.invite.findFirst({
      where: {
        id: inviteId,
        OR: [
          { mesh: { ownerUserId: actor.userId } },
          { createdByUserId: actor.userId, mesh: { members: { some: { userId: actor.userId, revokedAt: null } } } },
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
      actorUserId: actor.userId,
      metadata: { inviteId },
    });
    return { inviteId, revokedAt: now };
  });
}
