/** The states an invite can be in (Document 3: valid, expired, revoked, exhausted). */
export type InviteState = "valid" | "expired" | "revoked" | "exhausted";

/**
 * The state of an invite row at a moment. Checked in the order the broker's join checks them:
 * expiry, then revocation, then the use cap.
 */
export function inviteState(
  invite: { expiresAt: Date; revokedAt: Date | null; maxUses: number | null; usedCount: number },
  now: Date,
): InviteState {
  if (invite.expiresAt.getTime() <= now.getTime()) return "expired";
  if (invite.revokedAt) return "revoked";
  if (invite.maxUses !== null && invite.usedCount >= invite.maxUses) return "exhausted";
  return "valid";
}
