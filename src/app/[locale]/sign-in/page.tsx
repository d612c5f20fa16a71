import { getTranslations, setRequestLocale } from "next-intl/server";
import { titleFrom } from "@/i18n/metadata";
import { AuthForm } from "@/components/auth-form";
import { OAuthButtons } from "@/components/oauth-buttons";
import { Link, redirect } from "@/i18n/navigation";
import { signInAction } from "@/server/auth/actions";
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
  const { callbackUrl, reason, email } = await searchParams;
  if (await getSessionUser()) redirect({ href: "/dashboard", locale });
  const t = await getTranslations("auth");
  return (
    <section className="stack narrow">
      <h1>{t("signInTitle")}</h1>
      {reason === "signed-out" || reason === "registered" ? (
        <p className="notice" role="status">
          {t(reason === "registered" ? "registeredNotice" : "signedOutNotice")}
        </p>
      ) : (
        <p className="lead">{t("signInLead")}</p>
      )}
      <AuthForm mode="signIn" action={signInAction} callbackUrl={callbackUrl} initialEmail={typeof email === "string" ? email.slice(0, 320) : undefined} />
      <OAuthButtons />
      <p>
        {t("noAccount")} <Link href="/sign-up">{t("submitSignUp")}</Link>
      </p>
    </section>
  );
}
