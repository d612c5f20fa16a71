import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { Link, redirect } from "@/i18n/navigation";
import { getSessionUser } from "@/server/auth/session-user";

// The review engine's console is for administrators: signed-out visitors go to sign-in, other users
// see why they cannot enter.
export default async function EngineLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  const user = await getSessionUser();
  if (!user) {
    redirect({ href: { pathname: "/sign-in", query: { reason: "signed-out", callbackUrl: `/${locale}/engine` } }, locale });
  }
  const t = await getTranslations("engine");
  if (!user?.isAdmin) {
    return (
      <section className="card stack">
        <h1>{t("title")}</h1>
        <p className="alert" role="alert">
          {t("adminOnly")}
        </p>
      </section>
    );
  }
  return (
    <div className="stack">
      <nav aria-label={t("navigation")} className="row">
        <Link href="/engine">{t("dashboards")}</Link>
        <Link href="/engine/batches">{t("batchesTitle")}</Link>
        <Link href="/engine/jobs">{t("jobsTitle")}</Link>
        <Link href="/engine/schedules">{t("schedulesTitle")}</Link>
        <Link href="/engine/scrapers">{t("scrapersTitle")}</Link>
        <Link href="/engine/api-keys">{t("keysTitle")}</Link>
      </nav>
      {children}
    </div>
  );
}
