"use server";

import { headers } from "next/headers";
import { AuthError, CredentialsSignin } from "next-auth";
import { z } from "zod";
import { redirect } from "@/i18n/navigation";
import { clientAddress } from "@/server/core/client-address";
import { VISITOR } from "@/server/services/actor";
import { serviceContext } from "@/server/services/context";
import { AppError } from "@/server/core/errors";
import { signUp } from "@/server/services/users/sign-up";
import { logger } from "@/server/core/logger";
import { noticeSignUpOfExistingAccount, startEmailVerification } from "@/server/services/account/email-verification";
import { ZMailLocale } from "@/server/services/account/password-reset.schema";
import { ZSignUpInput } from "@/server/services/users/register-user.schema";
import { routing } from "@/i18n/routing";
import { signUpLimiter } from "./attempt-limit";
import { safeCallbackPath } from "./callback-path";
import { signIn, signOut } from "./index";

/** What a sign-in or sign-up form shows after a failed submit: message keys of auth.errors. */
export interface AuthFormState {
  error?: string;
  fieldErrors?: Record<string, string[]>;
  values?: { name?: string; email?: string };
}

const localeOf = (formData: FormData) => {
  const value = String(formData.get("locale") ?? "");
  return (routing.locales as readonly string[]).includes(value) ? value : routing.defaultLocale;
};

function safeCallback(formData: FormData, locale: string): string {
  return safeCallbackPath(String(formData.get("callbackUrl") ?? "")) ?? `/${locale}/dashboard`;
}

async function signInWithPassword(email: string, password: string, redirectTo: string): Promise<AuthFormState> {
  try {
    await signIn("credentials", { email, password, redirectTo });
    return {};
  } catch (error) {
    if (error instanceof CredentialsSignin && error.code === "rate_limited") {
      return { error: "rate_limited", values: { email } };
    }
    if (error instanceof AuthError) return { error: "invalid_credentials", values: { email } };
    throw error; // the redirect after a successful sign-in travels as an exception
  }
}

/** Signs in with e-mail and password; one generic error for any mismatch. */
export async function signInAction(_prev: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const locale = localeOf(formData);
  const email = String(formData.get("email") ?? "");
  const password = String(formData.get("password") ?? "");
  return signInWithPassword(email, password, safeCallback(formData, locale));
}

/**
 * Creates an account and signs it in at once, mailing the address a verification link (the account
 * works before it is followed). An address that already has an account creates nothing: it goes on to
 * the sign-in page with a notice, and its owner is mailed that someone tried (docs/security.md,
 * "E-mail": sign-up tells a new address from a taken one, as sign-in-at-once must; limited per e-mail
 * address and per client).
 */
export async function signUpAction(_prev: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const locale = localeOf(formData);
  const raw = {
    name: String(formData.get("name") ?? ""),
    email: String(formData.get("email") ?? ""),
    password: String(formData.get("password") ?? ""),
  };
  const values = { name: raw.name, email: raw.email };
  const parsed = ZSignUpInput.safeParse(raw);
  if (!parsed.success) {
    return { fieldErrors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]>, values };
  }
  if (!(await signUpLimiter().attempt(parsed.data.email, clientAddress(await headers()))))
    return { error: "rate_limited", values };
  let created: Awaited<ReturnType<typeof signUp>>;
  try {
    created = await signUp(serviceContext(VISITOR), parsed.data);
  } catch (error) {
    // Too many password hashes at once (src/server/core/password.ts): the same answer as the limit.
    if (error instanceof AppError && error.code === "TOO_MANY_REQUESTS") return { error: "rate_limited", values };
    throw error;
  }
  const mailLocale = ZMailLocale.parse(locale);
  if (created) {
    await startEmailVerification(serviceContext(VISITOR), { userId: created.id, locale: mailLocale }).catch(
      (error: unknown) => logger().warn({ event: "verification_not_sent", err: error }, "verification mail not sent"),
    );
    // Signed in, the success redirect is thrown from here; if the sign-in limit refused it, the sign-in page.
    await signInWithPassword(parsed.data.email, raw.password, safeCallback(formData, locale));
  } else {
    await noticeSignUpOfExistingAccount(serviceContext(VISITOR), { email: parsed.data.email, locale: mailLocale });
  }
  const callbackUrl = safeCallbackPath(String(formData.get("callbackUrl") ?? ""));
  redirect({
    href: {
      pathname: "/sign-in",
      query: {
        ...(created ? {} : { reason: "registered" }),
        email: parsed.data.email,
        ...(callbackUrl ? { callbackUrl } : {}),
      },
    },
    locale,
  });
  return {};
}

/** Signs out (closing the server-side session) and returns to the start page. */
export async function signOutAction(formData: FormData): Promise<void> {
  await signOut({ redirectTo: `/${localeOf(formData)}` });
}

/** Starts an OAuth sign-in with one of the enabled providers. */
export async function oauthSignInAction(formData: FormData): Promise<void> {
  const provider = String(formData.get("provider") ?? "");
  await signIn(provider, { redirectTo: safeCallback(formData, localeOf(formData)) });
}
