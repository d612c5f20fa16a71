import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import { hashPassword, verifyPassword } from "@/server/core/password";
import type { UserActor } from "../actor";
import { type TChangePasswordInput } from "./change-password.schema";
import { type CurrentSession } from "./my-sessions.schema";
import { signOutEverywhere } from "./sign-out-everywhere";

/**
 * Changes the signed-in user's password after checking the current one (scrypt, constant time), and
 * signs out every other session of the user, command-line logins included (signOutEverywhere); the
 * current one stays. `signedOutSessions` counts both kinds. Accounts without a password (OAuth
 * only) cannot set one here (CONFLICT no_password, docs/security.md "Accounts"). The caller limits
 * attempts (the sign-in limiter, attempt-limit.ts) before calling.
 */
export async function changePassword(
  ctx: ServiceContext<UserActor>,
  input: TChangePasswordInput,
  current: CurrentSession,
) {
  const user = await ctx.db.user.findUnique({ where: { id: ctx.actor.userId }, select: { passwordHash: true } });
  if (!user) throw new AppError("NOT_FOUND", "user_not_found");
  if (!user.passwordHash) throw new AppError("CONFLICT", "no_password");
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new AppError("BAD_REQUEST", "current_password_wrong", { field: "currentPassword" });
  }
  const passwordHash = await hashPassword(input.newPassword);
  return ctx.db.$transaction(async (tx) => {
    // Guarded on the hash just checked: a change that raced this one is not overwritten.
    const updated = await tx.user.updateMany({
      where: { id: ctx.actor.userId, passwordHash: user.passwordHash },
      data: { passwordHash },
    });
    if (updated.count !== 1) throw new AppError("CONFLICT", "password_changed_meanwhile");
    const ended = await signOutEverywhere(tx, {
      userId: ctx.actor.userId,
      now: ctx.now(),
      keepSessionId: current.sessionId,
    });
    return { changed: true as const, signedOutSessions: ended.sessions + ended.deviceTokens };
  });
}
