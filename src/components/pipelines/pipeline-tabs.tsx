import { getTranslations } from "next-intl/server";
import { BackLink } from "@/components/ui/back-link";
import { Link } from "@/i18n/navigation";

const TABS = ["dashboard", "execute", "executions", "report"] as const;
export type PipelineTab = (typeof TABS)[number];

/** Tabs that show one execution: a chosen one travels between them. */
const SHOWS_EXECUTION: readonly PipelineTab[] = ["dashboard", "report"];

/** The pipeline pages' title and tabs (`executionId`: the run chosen on the dashboard or report). */
export async function PipelineTabs({
  pipelineId,
  name,
  current,
  executionId,
}: {
  pipelineId: string;
  name: string;
  current: PipelineTab;
  executionId?: string;
}) {
  const t = await getTranslations("pipelines");
  const href = (tab: PipelineTab) => {
    const path = tab === "dashboard" ? `/pipelines/${pipelineId}` : `/pipelines/${pipelineId}/${tab}`;
    return executionId && SHOWS_EXECUTION.includes(tab) ? `${path}?execution=${executionId}` : path;
  };
  return (
    <div className="stack-sm no-print">
      <BackLink href="/pipelines">{t("backToList")}</BackLink>
      <h1>{t.has(`names.${pipelineId}`) ? t(`names.${pipelineId}`) : name}</h1>
      <nav className="tabs" aria-label={t("tabsLabel")}>
        {TABS.map((tab) => (
          <Link
            key={tab}
            href={href(tab)}
            aria-current={tab === current ? "page" : undefined}
            className={tab === current ? "tab tab-current" : "tab"}
          >
            {t(`tabs.${tab}`)}
          </Link>
        ))}
      </nav>
    </div>
  );
}
