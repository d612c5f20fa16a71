import { redirect as nextRedirect } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { titleFrom } from "@/i18n/metadata";
import { AuthForm } from "@/components/auth-form";
import { OAuthButtons } from "@/components/oauth-buttons";
import { Link, redirect } from "@/i18n/navigation";
import { signInAction } from "@/server/auth/actions";
import { safeCallbackPath } from "@/server/auth/callback-path";
import { getSessionUser } from "@/server/auth/session-user";

export const generateMetadata = titleFrom("auth", "signInTitle");

export default async function SignInPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ callbackUrl?: string; reason?: string; email?: string }>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const { reason, email } = await searchParams;
  const callbackUrl = safeCallbackPath((await searchParams).callbackUrl);
  // Already signed in: straight on (a join link's sign-in comes back to the join page).
  if (await getSessionUser()) {
    if (callbackUrl) nextRedirect(callbackUrl);
    redirect({ href: "/dashboard", locale });
  }
  const t = await getTranslations("auth");
  const te = await getTranslations("email");
  return (
    <section className="stack narrow">
      <h1>{t("signInTitle")}</h1>
      {reason === "signed-out" || reason === "registered" ? (
        <p className="notice" role="status">
          {t(reason === "registered" ? "registeredNotice" : "signedOutNotice")}
        </p>
      ) : reason === "password-reset" ? (
        <p className="notice" role="status">
          {te("passwordResetNotice")}
        </p>
      ) : (
        <p className="lead">{t("signInLead")}</p>
      )}
      <AuthForm
        mode="signIn"
        action={signInAction}
        callbackUrl={callbackUrl}
        initialEmail={typeof email === "string" ? email.slice(0, 320) : undefined}
      />
      <p>
        <Link href="/forgot-password">{te("forgotLink")}</Link>
      </p>
      <OAuthButtons callbackUrl={callbackUrl} />
      <p>
        {t("noAccount")}{" "}
        <Link href={callbackUrl ? { pathname: "/sign-up", query: { callbackUrl } } : "/sign-up"}>
          {t("submitSignUp")}
        </Link>
      </p>
    </section>
  );
}
