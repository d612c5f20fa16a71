import { notFound } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { titleFrom } from "@/i18n/metadata";
import { Link } from "@/i18n/navigation";
import { devMailMessage } from "@/server/mail/dev-mailbox";

export const dynamic = "force-dynamic";
export const generateMetadata = titleFrom("email", "devMailTitle");

const URL_IN_TEXT = /(https?:\/\/[^\s<>"]+)/g;

/**
 * One mail of the development mailbox: its text (links clickable) and its HTML in a sandboxed frame
 * (no scripts; links open in a new tab). 404 in production or with SMTP_URL set.
 */
export default async function DevMailMessagePage({ params }: { params: Promise<{ locale: string; id: string }> }) {
  const { locale, id } = await params;
  setRequestLocale(locale);
  const mail = await devMailMessage(id);
  if (!mail) notFound();
  const t = await getTranslations("email");
  const parts = mail.text.split(URL_IN_TEXT);
  return (
    <section className="stack">
      <p>
        <Link href="/dev/mail">{t("devMailBack")}</Link>
      </p>
      <h1>{mail.subject}</h1>
      <p className="muted">
        {t("devMailTo")} {mail.to} · {t("devMailDate")} {mail.date}
      </p>
      <h2>{t("devMailText")}</h2>
      <pre className="card" style={{ whiteSpace: "pre-wrap" }}>
        {parts.map((part, i) =>
          i % 2 === 1 ? (
            <a key={i} href={part}>
              {part}
            </a>
          ) : (
            part
          ),
        )}
      </pre>
      <h2>{t("devMailHtml")}</h2>
      <iframe
        title={t("devMailHtml")}
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        srcDoc={mail.html.replace("<head>", '<head><base target="_blank">')}
        style={{ width: "100%", minHeight: "24rem", border: "1px solid #ccc" }}
      />
    </section>
  );
}
