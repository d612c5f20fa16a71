import { getTranslations, setRequestLocale } from "next-intl/server";
import { ForgotPasswordForm } from "@/components/mail/forms";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { requestPasswordResetAction } from "@/server/auth/mail-actions";

export const generateMetadata = titleFrom("email", "forgotTitle");

/** "Forgot password?": asks for the address; the same answer for every address (docs/security.md). */
export default async function ForgotPasswordPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ email?: string }>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const { email } = await searchParams;
  const t = await getTranslations("email");
  return (
    <section className="stack narrow">
      <h1>{t("forgotTitle")}</h1>
      <p className="lead">{t("forgotLead")}</p>
      <ForgotPasswordForm
        action={requestPasswordResetAction}
        initialEmail={typeof email === "string" ? email.slice(0, 320) : undefined}
      />
      <p>
        <Link href="/sign-in">{t("backToSignIn")}</Link>
      </p>
    </section>
  );
}
