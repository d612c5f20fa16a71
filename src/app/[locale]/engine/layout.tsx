import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { SectionNav } from "@/components/ui/section-nav";
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
      <SectionNav
        label={t("navigation")}
        items={[
          { href: "/engine", label: t("dashboards"), exact: true },
          { href: "/engine/batches", label: t("batchesTitle") },
          { href: "/engine/jobs", label: t("jobsTitle") },
          { href: "/engine/schedules", label: t("schedulesTitle") },
          { href: "/engine/scrapers", label: t("scrapersTitle") },
          { href: "/engine/api-keys", label: t("keysTitle") },
        ]}
      />
      {children}
    </div>
  );
}
