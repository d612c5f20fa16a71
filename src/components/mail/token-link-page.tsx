import type { ReactNode } from "react";
import { getTranslations, setRequestLocale } from "next-intl/server";

/** What a page opened from a mailed link receives: the locale, and the link's `token`. */
export interface TokenLinkPageProps {
  params: Promise<{ locale: string }>;
  searchParams: Promise<{ token?: string }>;
}

/**
 * The page behind a mailed link (verify, confirm a new address, reset the password): its title, a lead
 * and the form that uses the token when submitted (a mail scanner opening the link uses nothing); a
 * link without a token says so. `page` names the page's keys in the `email` messages
 * (`<page>Title`, `<page>Lead`).
 */
export async function TokenLinkPage({
  props,
  page,
  form,
  missing,
}: {
  props: TokenLinkPageProps;
  page: "verify" | "confirm" | "reset";
  form: (token: string) => ReactNode;
  missing?: ReactNode;
}) {
  const { locale } = await props.params;
  setRequestLocale(locale);
  const { token } = await props.searchParams;
  const t = await getTranslations("email");
  return (
    <section className="stack narrow">
      <h1>{t(`${page}Title`)}</h1>
      {typeof token === "string" && token ? (
        <>
          <p className="lead">{t(`${page}Lead`)}</p>
          {form(token.slice(0, 100))}
        </>
      ) : (
        <p>
          {t("noToken")} {missing}
        </p>
      )}
    </section>
  );
}
