import { getTranslations, setRequestLocale } from "next-intl/server";
import { Link } from "@/i18n/navigation";
import { getSessionUser } from "@/server/auth/session-user";

export default async function HomePage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("home");
  const user = await getSessionUser();
  const parts = [
    { title: t("reviewsTitle"), body: t("reviewsBody") },
    { title: t("brokerTitle"), body: t("brokerBody") },
    { title: t("meshesTitle"), body: t("meshesBody") },
  ];
  return (
    <section className="stack">
      <h1>{t("title")}</h1>
      <p className="lead">{t("intro")}</p>
      <ul className="cards">
        {parts.map((part) => (
          <li key={part.title} className="card">
            <h2>{part.title}</h2>
            <p>{part.body}</p>
          </li>
        ))}
      </ul>
      <p>
        {user ? (
          <Link className="button" href="/dashboard">
            {t("goToDashboard")}
          </Link>
        ) : (
          <Link className="button" href="/sign-up">
            {t("getStarted")}
          </Link>
        )}
      </p>
    </section>
  );
}
