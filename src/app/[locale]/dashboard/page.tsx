import { getTranslations, setRequestLocale } from "next-intl/server";
import { titleFrom } from "@/i18n/metadata";
import { serverCaller } from "@/trpc/server";

export const generateMetadata = titleFrom("dashboard", "title");

export default async function DashboardPage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("dashboard");
  const profile = await (await serverCaller()).my.profile();
  return (
    <section className="stack">
      <h1>{t("greeting", { name: profile.name ?? profile.email ?? "" })}</h1>
      <p className="lead">{t("lead")}</p>
      <p className="muted">
        {t("signedInAs", { email: profile.email ?? "" })}{" "}
        {profile.isAdmin ? <span className="badge">{t("adminBadge")}</span> : null}
      </p>
      <div className="card empty">
        <h2>{t("emptyTitle")}</h2>
        <p>{t("emptyBody")}</p>
      </div>
    </section>
  );
}
