import { getTranslations, setRequestLocale } from "next-intl/server";
import { Link } from "@/i18n/navigation";
import { getSessionUser } from "@/server/auth/session-user";

export default async function HomePage({ params, searchParams }: { params: Promise<{ locale: string }>; searchParams: Promise<{ notice?: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("home");
  const ta = await getTranslations("account");
  // After an account deletion (settings page): the notice, on a page the signed-out visitor can see.
  const deleted = (await searchParams).notice === "account-deleted";
  const user = await getSessionUser();
  const parts = [
    { title: t("reviewsTitle"), body: t("reviewsBody") },
    { title: t("brokerTitle"), body: t("brokerBody") },
    { title: t("meshesTitle"), body: t("meshesBody") },
  ];
  return (
    <section className="stack">
      <h1>{t("title")}</h1>
      {deleted ? (
        <p className="notice" role="status">
          {ta("deletedNotice")}
        </p>
      ) : null}
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
