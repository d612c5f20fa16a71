import { notFound } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { devMailPage } from "@/server/mail/dev-mailbox";

export const generateMetadata = titleFrom("email", "devMailTitle");
export const dynamic = "force-dynamic";

/** The development mailbox (no SMTP_URL, not production): the mails kept in .data/mail; 404 otherwise. */
export default async function DevMailPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const page = await devMailPage();
  if (!page.available) notFound();
  const t = await getTranslations("email");
  return (
    <section className="stack">
      <h1>{t("devMailTitle")}</h1>
      <p className="lead">{t("devMailLead")}</p>
      {page.entries.length === 0 ? (
        <p className="muted">{t("devMailEmpty")}</p>
      ) : (
        <ul className="list">
          {page.entries.map((e) => (
            <li key={e.id} className="row">
              <Link href={`/dev/mail/${e.id}`}>{e.subject}</Link>
              <span className="muted">
                {t("devMailTo")} {e.to}
              </span>
              <span className="muted">{e.date}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
