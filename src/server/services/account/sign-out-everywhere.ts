import type { Db } from "@/server/core/db";

/**
 * Ends the user's browser sessions (all of them, or all but `keepSessionId`) and every command-line
 * token they hold, and refuses the command-line logins they approved that no terminal has collected
 * yet (its next poll answers `denied`): the one step a password change, a password reset, "sign out
 * other sessions" and account deletion share. A step of the caller's transaction (pass the
 * transaction client).
 */
export async function signOutEverywhere(
  db: Pick<Db, "session" | "deviceToken" | "deviceAuthorization">,
  input: { userId: string; now: Date; keepSessionId?: string | null },
): Promise<{ sessions: number; deviceTokens: number }> {
  const { userId, now, keepSessionId } = input;
  const sessions = await db.session.deleteMany({
    where: { userId, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
  });
  const deviceTokens = await db.deviceToken.updateMany({
    where: { userId, revokedAt: null },
    data: { revokedAt: now },
  });
  await db.deviceAuthorization.updateMany({ where: { userId, status: "approved" }, data: { status: "denied" } });
  return { sessions: sessions.count, deviceTokens: deviceTokens.count };
}
