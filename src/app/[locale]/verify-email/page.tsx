import { getTranslations, setRequestLocale } from "next-intl/server";
import { TokenConfirmForm } from "@/components/mail/forms";
import { titleFrom } from "@/i18n/metadata";
import { verifyEmailAction } from "@/server/auth/mail-actions";

export const generateMetadata = titleFrom("email", "verifyTitle");

/** The verification link's page: one button confirms the address (a mail scanner opening the link confirms nothing). */
export default async function VerifyEmailPage({
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
      <h1>{t("verifyTitle")}</h1>
      {typeof token === "string" && token ? (
        <>
          <p className="lead">{t("verifyLead")}</p>
          <TokenConfirmForm
            action={verifyEmailAction}
            token={token.slice(0, 100)}
            submit="verifySubmit"
            done="verifyDone"
          />
        </>
      ) : (
        <p>{t("noToken")}</p>
      )}
    </section>
  );
}
