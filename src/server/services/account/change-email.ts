import { AppError, isUniqueViolation } from "@/server/core/errors";
import { mailLimits, takeMailTokens } from "@/server/mail/limits";
import { changeEmailMail, emailChangedMail } from "@/server/mail/templates";
import { queueMail } from "@/server/mail/transport";
import type { UserActor, VisitorActor } from "../actor";
import type { ServiceContext } from "../context";
import { consumeEmailToken, emailLink, issueEmailToken } from "./email-verification-tokens";
import { ZEmailTokenInput, type TEmailTokenInput } from "./email-verification.schema";
import { ZMailLocale } from "./password-reset.schema";
import { ZRequestEmailChangeInput, type TRequestEmailChangeInput } from "./change-email.schema";

/**
 * Asks to change the account's address: a confirmation link (24 hours, single use) goes to the NEW
 * address; nothing changes until it is followed. Whether the new address already has an account is not
 * told here (the link simply fails then), so the form cannot probe addresses. Limited per account
 * (MAIL_PER_ADDRESS_PER_HOUR). Accounts without a password (OAuth only) keep the provider's address:
 * CONFLICT `no_password`.
 */
export async function requestEmailChange(
  ctx: ServiceContext<UserActor>,
  input: TRequestEmailChangeInput,
): Promise<{ sent: true }> {
  const { newEmail, locale } = ZRequestEmailChangeInput.parse(input);
  const user = await ctx.db.user.findUnique({
    where: { id: ctx.actor.userId },
    select: { email: true, passwordHash: true },
  });
  if (!user) throw new AppError("NOT_FOUND", "user_not_found");
  if (!user.passwordHash) throw new AppError("CONFLICT", "no_password");
  if (user.email === newEmail) throw new AppError("BAD_REQUEST", "email_unchanged", { field: "newEmail" });
  await takeMailTokens([[mailLimits().perAddress, `change:${ctx.actor.userId}`]]);
  const token = await ctx.db.$transaction((tx) =>
    issueEmailToken(tx, { userId: ctx.actor.userId, purpose: "change_email", email: newEmail, now: ctx.now() }),
  );
  queueMail(changeEmailMail(newEmail, locale, emailLink(ctx.settings.publicBaseUrl, locale, "confirm-email", token)));
  return { sent: true };
}

/**
 * The confirmation link's page: the account's address becomes the new one (verified, as the link
 * proves it), and the old address is told. BAD_REQUEST `link_invalid` when the token is used, expired
 * or unknown, or the new address got an account meanwhile.
 */
export async function confirmEmailChange(
  ctx: ServiceContext<VisitorActor>,
  input: TEmailTokenInput & { locale?: string },
): Promise<{ email: string }> {
  const { token } = ZEmailTokenInput.parse(input);
  const locale = ZMailLocale.parse(input.locale);
  const now = ctx.now();
  let oldEmail: string | null = null;
  let newEmail: string;
  try {
    newEmail = await ctx.db.$transaction(async (tx) => {
      const used = await consumeEmailToken(tx, { token, purpose: "change_email", now });
      if (!used) throw new AppError("BAD_REQUEST", "link_invalid");
      const user = await tx.user.findUnique({ where: { id: used.userId }, select: { email: true } });
      if (!user) throw new AppError("BAD_REQUEST", "link_invalid");
      oldEmail = user.email;
      await tx.user.update({ where: { id: used.userId }, data: { email: used.email, emailVerified: now } });
      // Links mailed to the old address (a reset, a verification) stop working with it.
      await tx.emailToken.updateMany({
        where: { userId: used.userId, usedAt: null, purpose: { in: ["password_reset", "verify_email"] } },
        data: { usedAt: now },
      });
      return used.email;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("BAD_REQUEST", "link_invalid");
    throw error;
  }
  if (oldEmail && oldEmail !== newEmail) queueMail(emailChangedMail(oldEmail, locale, newEmail));
  return { email: newEmail };
}
