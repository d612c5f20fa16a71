import { AppError } from "@/server/core/errors";
import { mailLimits, takeMailTokens } from "@/server/mail/limits";
import { inviteMail } from "@/server/mail/templates";
import { queueMail } from "@/server/mail/transport";
import type { UserActor } from "../actor";
import type { ServiceContext } from "../context";
import { roleOfUser } from "../meshes/member-roles";
import { openInviteCode } from "./invite-code";
import { inviteState } from "./invite-state";
import { joinLinks, shortJoinUrl } from "./join-links";
import { ZInviteByEmailInput, type TInviteByEmailInput } from "./invite-by-email.schema";

/**
 * Mails an invite's link (the short one when it has one) to an address, in the sender's language.
 * Only someone who may issue this invite now may send it: the mesh owner, or a mesh admin for an invite
 * of a role below admin that they created; the invite must be usable and the mesh not archived.
 * Limited per sender (INVITE_EMAILS_PER_HOUR); the mail goes out in the background.
 */
export async function sendInviteByEmail(
  ctx: ServiceContext<UserActor>,
  input: TInviteByEmailInput,
): Promise<{ sent: true }> {
  const { inviteId, email, locale } = ZInviteByEmailInput.parse(input);
  const userId = ctx.actor.userId;
  const invite = await ctx.db.invite.findFirst({
    where: { id: inviteId, OR: [{ mesh: { ownerUserId: userId } }, { createdByUserId: userId }] },
    select: {
      id: true,
      token: true,
      role: true,
      expiresAt: true,
      revokedAt: true,
      maxUses: true,
      usedCount: true,
      shortCodeEnc: true,
      mesh: {
        select: {
          name: true,
          ownerUserId: true,
          archivedAt: true,
          members: { where: { userId, revokedAt: null }, select: { role: true } },
        },
      },
    },
  });
  if (!invite) throw new AppError("NOT_FOUND", "invite_not_found");
  const role = roleOfUser(
    invite.mesh.ownerUserId === userId,
    invite.mesh.members.map((m) => m.role),
    undefined,
  );
  if (role !== "owner" && role !== "admin") throw new AppError("FORBIDDEN", "invite_not_allowed");
  if (role === "admin" && invite.role === "admin") throw new AppError("FORBIDDEN", "role_not_allowed");
  if (invite.mesh.archivedAt) throw new AppError("CONFLICT", "mesh_archived");
  if (inviteState(invite, ctx.now()) !== "valid") throw new AppError("CONFLICT", "invite_not_valid");
  await takeMailTokens([[mailLimits().invitesPerUser, userId]]);
  const sender = await ctx.db.user.findUnique({ where: { id: userId }, select: { name: true, email: true } });
  const code = openInviteCode(ctx.sealer, invite.id, invite.shortCodeEnc);
  const url = code
    ? shortJoinUrl(ctx.settings.publicBaseUrl, code)
    : joinLinks(ctx.settings.publicBaseUrl, invite.token).joinUrl;
  queueMail(
    inviteMail(email, locale, {
      url,
      inviter: sender?.name || sender?.email || "",
      mesh: invite.mesh.name,
      expiresAt: invite.expiresAt,
    }),
  );
  return { sent: true };
}
