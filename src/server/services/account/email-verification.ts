import { AppError } from "@/server/core/errors";
import type { Db } from "@/server/core/db";
import type { Locale } from "@/i18n/routing";
import { mailLimits, takeMailTokens } from "@/server/mail/limits";
import { signUpExistingMail, verifyEmailMail } from "@/server/mail/templates";
import { queueMail } from "@/server/mail/transport";
import type { UserActor, VisitorActor } from "../actor";
import type { ServiceContext } from "../context";
import { consumeEmailToken, emailLink, issueEmailToken } from "./email-verification-tokens";
import {
  ZEmailTokenInput,
  ZResendVerificationInput,
  type TEmailTokenInput,
  type TResendVerificationInput,
} from "./email-verification.schema";

/** Issues a verification token for the user's current address and mails its link (in the background). */
async function mailVerificationLink(
  db: Db,
  input: { userId: string; email: string; locale: Locale; now: Date; publicBaseUrl: string },
): Promise<void> {
  const token = await db.$transaction((tx) =>
    issueEmailToken(tx, { userId: input.userId, purpose: "verify_email", email: input.email, now: input.now }),
  );
  queueMail(
    verifyEmailMail(input.email, input.locale, emailLink(input.publicBaseUrl, input.locale, "verify-email", token)),
  );
}

/**
 * After a sign-up: mails the new account's verification link (valid 24 hours, single use). The account
 * works at once; until the link is followed the dashboard shows a banner with "resend".
 */
export async function startEmailVerification(
  ctx: ServiceContext<VisitorActor>,
  input: { userId: string; locale: Locale },
): Promise<void> {
  const user = await ctx.db.user.findUnique({
    where: { id: input.userId },
    select: { email: true, emailVerified: true },
  });
  if (!user?.email || user.emailVerified) return;
  await takeMailTokens([[mailLimits().perAddress, `verify:${input.userId}`]]);
  await mailVerificationLink(ctx.db, {
    userId: input.userId,
    email: user.email,
    locale: input.locale,
    now: ctx.now(),
    publicBaseUrl: ctx.settings.publicBaseUrl,
  });
}

/** The banner's "resend": a new link (the older ones stop working); CONFLICT `already_verified`. */
export async function resendEmailVerification(
  ctx: ServiceContext<UserActor>,
  input: TResendVerificationInput,
): Promise<{ sent: true }> {
  const { locale } = ZResendVerificationInput.parse(input);
  const user = await ctx.db.user.findUnique({
    where: { id: ctx.actor.userId },
    select: { email: true, emailVerified: true },
  });
  if (!user?.email) throw new AppError("NOT_FOUND", "user_not_found");
  if (user.emailVerified) throw new AppError("CONFLICT", "already_verified");
  await takeMailTokens([[mailLimits().perAddress, `verify:${ctx.actor.userId}`]]);
  await mailVerificationLink(ctx.db, {
    userId: ctx.actor.userId,
    email: user.email,
    locale,
    now: ctx.now(),
    publicBaseUrl: ctx.settings.publicBaseUrl,
  });
  return { sent: true };
}

/**
 * The verification link's page: marks the address verified when the token is valid and was issued for
 * the account's current address. BAD_REQUEST `link_invalid` otherwise (used, expired, unknown).
 */
export async function verifyEmail(
  ctx: ServiceContext<VisitorActor>,
  input: TEmailTokenInput,
): Promise<{ verified: true; email: string }> {
  const { token } = ZEmailTokenInput.parse(input);
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const used = await consumeEmailToken(tx, { token, purpose: "verify_email", now });
    if (!used) throw new AppError("BAD_REQUEST", "link_invalid");
    const updated = await tx.user.updateMany({
      where: { id: used.userId, email: used.email },
      data: { emailVerified: now },
    });
    if (updated.count !== 1) throw new AppError("BAD_REQUEST", "link_invalid");
    return { verified: true as const, email: used.email };
  });
}

/** Whether the user's address is verified (the dashboard's banner). */
export async function emailVerificationState(
  ctx: ServiceContext<UserActor>,
): Promise<{ email: string | null; verified: boolean }> {
  const user = await ctx.db.user.findUnique({
    where: { id: ctx.actor.userId },
    select: { email: true, emailVerified: true },
  });
  return { email: user?.email ?? null, verified: Boolean(user?.emailVerified) };
}

/**
 * A sign-up with an address that already has an account: its owner is told (with a reset link's page),
 * at most MAIL_PER_ADDRESS_PER_HOUR times an hour; past that nothing is sent and nothing is said.
 */
export async function noticeSignUpOfExistingAccount(
  ctx: ServiceContext<VisitorActor>,
  input: { email: string; locale: Locale },
): Promise<void> {
  try {
    await takeMailTokens([[mailLimits().perAddress, `signup:${input.email}`]]);
  } catch (error) {
    if (error instanceof AppError && error.code === "TOO_MANY_REQUESTS") return;
    throw error;
  }
  const forgot = new URL(`/${input.locale}/forgot-password`, ctx.settings.publicBaseUrl).toString();
  queueMail(signUpExistingMail(input.email, input.locale, forgot));
}
