import { getTranslations, setRequestLocale } from "next-intl/server";
import { titleFrom } from "@/i18n/metadata";
import { AuthForm } from "@/components/auth-form";
import { OAuthButtons } from "@/components/oauth-buttons";
import { Link, redirect } from "@/i18n/navigation";
import { signUpAction } from "@/server/auth/actions";
import { getSessionUser } from "@/server/auth/session-user";

export const generateMetadata = titleFrom("auth", "signUpTitle");

export default async function SignUpPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  if (await getSessionUser()) redirect({ href: "/dashboard", locale });
  const t = await getTranslations("auth");
  return (
    <section className="stack narrow">
      <h1>{t("signUpTitle")}</h1>
      <p className="lead">{t("signUpLead")}</p>
      <AuthForm mode="signUp" action={signUpAction} />
      <OAuthButtons />
      <p>
        {t("haveAccount")} <Link href="/sign-in">{t("submitSignIn")}</Link>
      </p>
    </section>
  );
}
