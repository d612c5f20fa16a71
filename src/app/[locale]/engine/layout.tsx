import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { Link } from "@/i18n/navigation";
import { requireAdmin } from "@/trpc/admin";

// The review engine's console is for administrators, as the admin console: signed-out visitors go to
// sign-in (and back), any other user gets the 403 page with HTTP status 403 (requireAdmin).
export default async function EngineLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const { locale } = await params;
  await requireAdmin(locale, "/engine");
  const t = await getTranslations("engine");
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
