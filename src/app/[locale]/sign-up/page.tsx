import { getTranslations, setRequestLocale } from "next-intl/server";
import { titleFrom } from "@/i18n/metadata";
import { AuthForm } from "@/components/auth-form";
import { OAuthButtons } from "@/components/oauth-buttons";
import { Link, redirect } from "@/i18n/navigation";
import { signUpAction } from "@/server/auth/actions";
import { safeCallbackPath } from "@/server/auth/callback-path";
import { getSessionUser } from "@/server/auth/session-user";

export const generateMetadata = titleFrom("auth", "signUpTitle");

export default async function SignUpPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ callbackUrl?: string }>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const callbackUrl = safeCallbackPath((await searchParams).callbackUrl);
  if (await getSessionUser()) redirect({ href: "/dashboard", locale });
  const t = await getTranslations("auth");
  return (
    <section className="stack narrow">
      <h1>{t("signUpTitle")}</h1>
      <p className="lead">{t("signUpLead")}</p>
      <AuthForm mode="signUp" action={signUpAction} callbackUrl={callbackUrl} />
      <OAuthButtons callbackUrl={callbackUrl} />
      <p>
        {t("haveAccount")}{" "}
        <Link href={callbackUrl ? { pathname: "/sign-in", query: { callbackUrl } } : "/sign-in"}>
          {t("submitSignIn")}
        </Link>
      </p>
    </section>
  );
}
