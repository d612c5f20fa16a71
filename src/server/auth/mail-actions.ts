"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { redirect } from "@/i18n/navigation";
import { routing } from "@/i18n/routing";
import { clientAddress } from "@/server/core/client-address";
import { AppError } from "@/server/core/errors";
import { VISITOR } from "@/server/services/actor";
import { serviceContext } from "@/server/services/context";
import { confirmEmailChange } from "@/server/services/account/change-email";
import { verifyEmail } from "@/server/services/account/email-verification";
import { requestPasswordReset, resetPassword } from "@/server/services/account/password-reset";
import { ZRequestPasswordResetInput, ZResetPasswordInput } from "@/server/services/account/password-reset.schema";

/** What the forms of the mailed-link pages show after a submit: message keys of `email.errors`. */
export interface MailFormState {
  error?: string;
  fieldErrors?: Record<string, string[]>;
  done?: boolean;
  /** The address a link was for (verification and address change done). */
  email?: string;
}

const localeOf = (formData: FormData) => {
  const value = String(formData.get("locale") ?? "");
  return (routing.locales as readonly string[]).includes(value) ? value : routing.defaultLocale;
};

/** An expected refusal as the form's error key; anything else is thrown on. */
function refusal(error: unknown): MailFormState {
  if (error instanceof AppError && (error.code === "TOO_MANY_REQUESTS" || error.code === "BAD_REQUEST")) {
    return { error: error.code === "TOO_MANY_REQUESTS" ? "rate_limited" : (error.message ?? "unknown") };
  }
  throw error;
}

/**
 * "Forgot password?": the same answer for every well-formed address (docs/security.md, "E-mail"); the
 * mail, if any, goes out after the answer.
 */
export async function requestPasswordResetAction(_prev: MailFormState, formData: FormData): Promise<MailFormState> {
  const parsed = ZRequestPasswordResetInput.safeParse({
    email: String(formData.get("email") ?? ""),
    locale: localeOf(formData),
  });
  if (!parsed.success) {
    return { fieldErrors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> };
  }
  try {
    await requestPasswordReset(serviceContext(VISITOR), parsed.data, { client: clientAddress(await headers()) });
    return { done: true };
  } catch (error) {
    return refusal(error);
  }
}

/** The reset page: a new password, then the sign-in page (every session of the account has ended). */
export async function resetPasswordAction(_prev: MailFormState, formData: FormData): Promise<MailFormState> {
  const locale = localeOf(formData);
  const parsed = ZResetPasswordInput.safeParse({
    token: String(formData.get("token") ?? ""),
    newPassword: String(formData.get("newPassword") ?? ""),
    confirmPassword: String(formData.get("confirmPassword") ?? ""),
  });
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>;
    if (fieldErrors.token) return { error: "link_invalid" };
    return { fieldErrors };
  }
  let email: string;
  try {
    ({ email } = await resetPassword(serviceContext(VISITOR), parsed.data));
  } catch (error) {
    return refusal(error);
  }
  redirect({ href: { pathname: "/sign-in", query: { reason: "password-reset", email } }, locale });
  return { done: true };
}

/** The verification page's button. */
export async function verifyEmailAction(_prev: MailFormState, formData: FormData): Promise<MailFormState> {
  try {
    const { email } = await verifyEmail(serviceContext(VISITOR), { token: String(formData.get("token") ?? "") });
    return { done: true, email };
  } catch (error) {
    if (error instanceof z.ZodError) return { error: "link_invalid" };
    return refusal(error);
  }
}

/** The address change's confirmation page: the new address applies; the old one is told. */
export async function confirmEmailChangeAction(_prev: MailFormState, formData: FormData): Promise<MailFormState> {
  try {
    const { email } = await confirmEmailChange(serviceContext(VISITOR), {
      token: String(formData.get("token") ?? ""),
      locale: localeOf(formData),
    });
    return { done: true, email };
  } catch (error) {
    if (error instanceof z.ZodError) return { error: "link_invalid" };
    return refusal(error);
  }
}
