import { getTranslations, setRequestLocale } from "next-intl/server";
import { ResetPasswordForm } from "@/components/mail/forms";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { resetPasswordAction } from "@/server/auth/mail-actions";

export const generateMetadata = titleFrom("email", "resetTitle");

/** The reset link's page: a new password; the token is checked (and used) only when it is submitted. */
export default async function ResetPasswordPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ token?: string }>;
}) {
  const { locale } = await params;
  setRequestLocale(locale);
  const { token } = await searchParams;
  const t = await getTranslations("email");
  return (
    <section className="stack narrow">
      <h1>{t("resetTitle")}</h1>
      {typeof token === "string" && token ? (
        <>
          <p className="lead">{t("resetLead")}</p>
          <ResetPasswordForm action={resetPasswordAction} token={token.slice(0, 100)} />
        </>
      ) : (
        <p>
          {t("noToken")} <Link href="/forgot-password">{t("requestNewLink")}</Link>
        </p>
      )}
    </section>
  );
}
