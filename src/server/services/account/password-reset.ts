import { AppError } from "@/server/core/errors";
import { hashPassword } from "@/server/core/password";
import { mailLimits, takeMailTokens } from "@/server/mail/limits";
import { passwordResetMail } from "@/server/mail/templates";
import { inBackground, queueMail } from "@/server/mail/transport";
import type { VisitorActor } from "../actor";
import type { ServiceContext } from "../context";
import { consumeEmailToken, emailLink, issueEmailToken } from "./email-verification-tokens";
import {
  ZRequestPasswordResetInput,
  ZResetPasswordInput,
  type TRequestPasswordResetInput,
  type TResetPasswordInput,
} from "./password-reset.schema";
import { signOutEverywhere } from "./sign-out-everywhere";

/** Where the request came from: its client address (src/server/core/client-address.ts). */
export interface RequestOrigin {
  client: string;
}

/**
 * "Forgot password?": mails a reset link (single use, 30 minutes, stored hashed) when the address
 * belongs to an account with a password. The answer is the same whether or not it does: the same value,
 * and the same time, since everything that depends on the address (the lookup, the link, the mail)
 * runs after the answer (inBackground). Limited per address and per client (MAIL_PER_ADDRESS_PER_HOUR,
 * MAIL_CLIENT_RATE_PER_MINUTE), before anything else: a refusal does not depend on the address either.
 * bench/password-reset.ts measures both answers' times.
 */
export async function requestPasswordReset(
  ctx: ServiceContext<VisitorActor>,
  input: TRequestPasswordResetInput,
  origin: RequestOrigin,
): Promise<{ accepted: true }> {
  const { email, locale } = ZRequestPasswordResetInput.parse(input);
  const limits = mailLimits();
  await takeMailTokens([
    [limits.perAddress, `reset:${email}`],
    [limits.perClient, origin.client],
  ]);
  const now = ctx.now();
  inBackground("password_reset", async () => {
    const user = await ctx.db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
    if (!user?.passwordHash) return; // no account, or one that signs in only with a provider
    const token = await ctx.db.$transaction((tx) =>
      issueEmailToken(tx, { userId: user.id, purpose: "password_reset", email, now }),
    );
    queueMail(passwordResetMail(email, locale, emailLink(ctx.settings.publicBaseUrl, locale, "reset-password", token)));
  });
  return { accepted: true };
}

/**
 * The reset page: sets the new password when the link's token is valid (unused, younger than 30
 * minutes, issued to the account's current address), uses it up, and ends every session and
 * command-line token of the account (signOutEverywhere). BAD_REQUEST `link_invalid` otherwise.
 * Following the link proves the address, so an unverified address counts as verified from then on.
 */
export async function resetPassword(
  ctx: ServiceContext<VisitorActor>,
  input: TResetPasswordInput,
): Promise<{ email: string; sessionsEnded: number; deviceTokensEnded: number }> {
  const { token, newPassword } = ZResetPasswordInput.parse(input);
  const passwordHash = await hashPassword(newPassword);
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const used = await consumeEmailToken(tx, { token, purpose: "password_reset", now });
    if (!used) throw new AppError("BAD_REQUEST", "link_invalid");
    const user = await tx.user.findUnique({ where: { id: used.userId }, select: { email: true, emailVerified: true } });
    if (!user || user.email !== used.email) throw new AppError("BAD_REQUEST", "link_invalid");
    await tx.user.update({
      where: { id: used.userId },
      data: { passwordHash, ...(user.emailVerified ? {} : { emailVerified: now }) },
    });
    const ended = await signOutEverywhere(tx, { userId: used.userId, now });
    return { email: used.email, sessionsEnded: ended.sessions, deviceTokensEnded: ended.deviceTokens };
  });
}
