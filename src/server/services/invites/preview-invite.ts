import { verifyInviteToken } from "@/server/core/invites";
import type { TInvitePayload } from "@/server/core/invites/invite-schema";
import { previewReason, type InviteRefusal, type PreviewReason } from "./invite-refusal";
import { inviteState } from "./invite-state";
import { issuerMayInvite } from "./invite-issuer";
import type { VisitorActor } from "../actor";
import type { ServiceContext } from "../context";
import type { TPreviewInviteInput } from "./preview-invite.schema";

export interface PreviewDetails {
  meshName: string | null;
  meshSlug: string | null;
  inviterName: string | null;
  role: string | null;
  memberCount: number | null;
  expiresAt: Date | null;
}

export type InvitePreview =
  ({ valid: true } & PreviewDetails) | ({ valid: false; reason: PreviewReason } & PreviewDetails);

/** A refused invite's answer: its refusal code (ERROR_MAP) as the preview names it, and what can be told. */
const refused = (code: InviteRefusal, details: PreviewDetails): InvitePreview => ({
  valid: false,
  reason: previewReason(code),
  ...details,
});

const NONE: PreviewDetails = {
  meshName: null,
  meshSlug: null,
  inviterName: null,
  role: null,
  memberCount: null,
  expiresAt: null,
};

/**
 * What an invite link leads to, for anyone holding it: verified with the same codec as the broker's
 * join, then joined to its mesh, invite and inviter. Read-only: usedCount never changes here. Its actor
 * is the visitor: whoever holds the link, signed in or not.
 */
export async function previewInvite(
  ctx: ServiceContext<VisitorActor>,
  input: TPreviewInviteInput,
): Promise<InvitePreview> {
  const { token } = input;
  const now = ctx.now();
  const verified = verifyInviteToken(token, { now });
  if (!verified.ok && verified.reason === "malformed") return refused("invite_malformed", NONE);
  // A token that decodes but whose signature fails: only what it claims about itself (role, expiry) is
  // given back, never anything read for its mesh id, so a forged token learns nothing of which meshes exist.
  if (!verified.ok && verified.reason === "bad_signature")
    return refused("invite_bad_signature", { ...NONE, ...claimed(verified.payload) });

  const invite = await ctx.db.invite.findUnique({
    where: { token },
    select: {
      meshId: true,
      createdByUserId: true,
      role: true,
      expiresAt: true,
      maxUses: true,
      usedCount: true,
      revokedAt: true,
      createdBy: { select: { name: true } },
      mesh: {
        select: {
          name: true,
          slug: true,
          archivedAt: true,
          ownerUserId: true,
          _count: { select: { members: { where: { revokedAt: null } } } },
        },
      },
    },
  });
  if (!invite) {
    // A well-signed token with no row: name the mesh only when its real owner key signed it.
    const payload = verified.payload;
    const mesh = payload
      ? await ctx.db.mesh.findFirst({
          where: { id: payload.mesh_id, ownerPubkey: payload.owner_pubkey },
          select: { name: true, slug: true, _count: { select: { members: { where: { revokedAt: null } } } } },
        })
      : null;
    return refused("invite_not_found", {
      ...NONE,
      ...claimed(payload),
      meshName: mesh?.name ?? null,
      meshSlug: mesh?.slug ?? null,
      memberCount: mesh ? mesh._count.members : null,
    });
  }
  const details: PreviewDetails = {
    meshName: invite.mesh.name,
    meshSlug: invite.mesh.slug,
    inviterName: invite.createdBy.name,
    role: invite.role,
    memberCount: invite.mesh._count.members,
    expiresAt: invite.expiresAt,
  };
  // An invite whose issuer may no longer invite is shown as revoked, as the join refuses it.
  const state = inviteState({ ...invite, issuerMayInvite: await issuerMayInvite(ctx.db, invite) }, now);
  if (state !== "valid") return refused(`invite_${state}`, details);
  if (invite.mesh.archivedAt) return refused("mesh_archived", details);
  return { valid: true, ...details };
}

/** The role and expiry a decoded token states (signed or not: the caller says which). */
function claimed(payload: TInvitePayload | undefined): Pick<PreviewDetails, "role" | "expiresAt"> {
  if (!payload) return { role: null, expiresAt: null };
  const expiresAt = new Date(payload.expires_at);
  return { role: payload.role, expiresAt: Number.isNaN(expiresAt.getTime()) ? null : expiresAt };
}
