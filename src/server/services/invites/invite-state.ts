/** The states an invite can be in (Document 3: valid, expired, revoked, exhausted). */
export type InviteState = "valid" | "expired" | "revoked" | "exhausted";

/**
 * Joins an invite without a use cap of its own admits (issue 41, "one invite fills a mesh"): every key
 * that joins is a new identity with its own connections, so an invite nobody capped would otherwise let
 * its holder make as many as they like. An owner who means a link for more people sets a cap (up to 10,000).
 */
export const INVITE_DEFAULT_MAX_USES = 10;

/** The use cap that holds for an invite: its own, else {@link INVITE_DEFAULT_MAX_USES}. */
export function effectiveMaxUses(maxUses: number | null): number {
  return maxUses ?? INVITE_DEFAULT_MAX_USES;
}

/**
 * The state of an invite row at a moment. Checked in the order the broker's join checks them:
 * expiry, then revocation (an invite whose issuer may no longer invite counts as revoked, when the
 * caller says so: invites/invite-issuer.ts), then the use cap.
 */
export function inviteState(
  invite: {
    expiresAt: Date;
    revokedAt: Date | null;
    maxUses: number | null;
    usedCount: number;
    issuerMayInvite?: boolean;
  },
  now: Date,
): InviteState {
  if (invite.expiresAt.getTime() <= now.getTime()) return "expired";
  if (invite.revokedAt || invite.issuerMayInvite === false) return "revoked";
  if (invite.usedCount >= effectiveMaxUses(invite.maxUses)) return "exhausted";
  return "valid";
}
