import { getTranslations, setRequestLocale } from "next-intl/server";
import { TokenConfirmForm } from "@/components/mail/forms";
import { titleFrom } from "@/i18n/metadata";
import { confirmEmailChangeAction } from "@/server/auth/mail-actions";

export const generateMetadata = titleFrom("email", "confirmTitle");

/** The address change's link: one button makes the new address the account's (the old one is told). */
export default async function ConfirmEmailPage({
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
      <h1>{t("confirmTitle")}</h1>
      {typeof token === "string" && token ? (
        <>
          <p className="lead">{t("confirmLead")}</p>
          <TokenConfirmForm
            action={confirmEmailChangeAction}
            token={token.slice(0, 100)}
            submit="confirmSubmit"
            done="confirmDone"
          />
        </>
      ) : (
        <p>{t("noToken")}</p>
      )}
    </section>
  );
}
