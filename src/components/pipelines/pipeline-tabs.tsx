import { getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";

const TABS = ["dashboard", "execute", "executions", "report"] as const;
export type PipelineTab = (typeof TABS)[number];

/** The pipeline pages' title and tabs. */
export async function PipelineTabs({ pipelineId, name, current }: { pipelineId: string; name: string; current: PipelineTab }) {
  const t = await getTranslations("pipelines");
  const href = (tab: PipelineTab) => (tab === "dashboard" ? `/pipelines/${pipelineId}` : `/pipelines/${pipelineId}/${tab}`);
  return (
    <div className="stack-sm no-print">
      <p>
        <Link href="/pipelines">{t("backToList")}</Link>
      </p>
      <h1>{t.has(`names.${pipelineId}`) ? t(`names.${pipelineId}`) : name}</h1>
      <nav className="tabs" aria-label={t("tabsLabel")}>
        {TABS.map((tab) => (
          <Link key={tab} href={href(tab)} aria-current={tab === current ? "page" : undefined} className={tab === current ? "tab tab-current" : "tab"}>
            {t(`tabs.${tab}`)}
          </Link>
        ))}
      </nav>
    </div>
  );
}
