import type { Db } from "@/server/core/db";
import { INVITE_DEFAULT_MAX_USES, inviteState } from "../invites/invite-state";
import { issuerMayInvite } from "../invites/invite-issuer";
import type { InviteRefusal } from "../invites/invite-refusal";

/**
 * Counts one use of the invite with one conditional UPDATE (so the cap holds under any number of
 * concurrent joins); null when counted, else why not (expired, revoked, exhausted, archived mesh). An
 * invite whose issuer may no longer invite counts as revoked (invites/invite-issuer.ts); one without a
 * use cap admits INVITE_DEFAULT_MAX_USES joins (invites/invite-state.ts).
 */
export async function useInvite(
  tx: Pick<Db, "invite" | "member" | "$executeRaw">,
  inviteId: string,
  now: Date,
): Promise<InviteRefusal | null> {
  const counted = await tx.$executeRaw`
    UPDATE invites i SET used_count = used_count + 1
    FROM meshes m
    WHERE i.id = ${inviteId}::uuid AND m.id = i.mesh_id
      AND i.expires_at > ${now} AND i.revoked_at IS NULL
      AND i.used_count < coalesce(i.max_uses, ${INVITE_DEFAULT_MAX_USES}::int)
      AND m.archived_at IS NULL
      AND (i.created_by_user_id = m.owner_user_id OR EXISTS (
        SELECT 1 FROM members a
        WHERE a.mesh_id = i.mesh_id AND a.user_id = i.created_by_user_id AND a.revoked_at IS NULL AND a.role = 'admin'))`;
  return counted === 0 ? refusalOf(tx, inviteId, now) : null;
}

async function refusalOf(tx: Pick<Db, "invite" | "member">, inviteId: string, now: Date): Promise<InviteRefusal> {
  const row = await tx.invite.findUnique({
    where: { id: inviteId },
    select: {
      meshId: true,
      createdByUserId: true,
      expiresAt: true,
      revokedAt: true,
      maxUses: true,
      usedCount: true,
      mesh: { select: { archivedAt: true, ownerUserId: true } },
    },
  });
  if (!row) return "invite_not_found";
  const state = inviteState({ ...row, issuerMayInvite: await issuerMayInvite(tx, row) }, now);
  return state === "valid" ? "mesh_archived" : `invite_${state}`;
}
