import { TRPCError } from "@trpc/server";
import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { ExecutionHeading } from "@/components/pipelines/execution-heading";
import { ExecutionPicker } from "@/components/pipelines/execution-picker";
import { loadPipeline, loadSelection } from "@/components/pipelines/load-pipeline";
import { NoRun } from "@/components/pipelines/no-run";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { PrintButton } from "@/components/pipelines/print-button";
import { ReportV1View } from "@/components/pipelines/report-v1";
import { ReportV2View } from "@/components/pipelines/report-v2";
import { Link } from "@/i18n/navigation";
import { narrativeInEnglish, type ReportV2 } from "@/server/pipelines/review-analytics/synthesis/report";
import { serverCaller } from "@/trpc/server";
import { pipelineTitle } from "@/i18n/page-titles";
import { KeyValues } from "@/components/key-values";

async function loadReport(pipelineId: string, executionId: string) {
  try {
    return await (await serverCaller()).pipelines.synthesis({ pipeline_id: pipelineId, execution_id: executionId });
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export const generateMetadata = pipelineTitle("report");

export default async function ReportPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string; pipelineId: string }>;
  searchParams: Promise<{ execution?: string }>;
}) {
  const { locale, pipelineId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("pipelines.report");
  const format = await getFormatter();
  const pipeline = await loadPipeline(locale, pipelineId);
  const { current, choices, chosen } = await loadSelection(pipeline.id, (await searchParams).execution);
  const synthesis = current && current.review_count !== 0 ? await loadReport(pipeline.id, current.id) : null;
  return (
    <section className="stack">
      <PipelineTabs
        pipelineId={pipeline.id}
        name={pipeline.name}
        current="report"
        executionId={chosen ? current?.id : undefined}
      />
      {!current ? (
        <NoRun pipelineId={pipeline.id} reason="none" />
      ) : (
        <>
          <ExecutionHeading run={current} chosen={chosen} />
          <ExecutionPicker runs={choices} currentId={current.id} />
          {current.review_count === 0 || synthesis?.state === "no_reviews" ? (
            <NoRun pipelineId={pipeline.id} reason="no_reviews" />
          ) : !synthesis?.report ? (
            <div className="card empty stack-sm">
              <p>{t("empty")}</p>
              <p>
                <Link className="button" href={`/pipelines/${pipeline.id}/execute`}>
                  {t("runNow")}
                </Link>
              </p>
            </div>
          ) : (
            <>
              <div className="row-between">
                <h2 className="report-title">{t("title")}</h2>
                <PrintButton />
              </div>
              <p className="muted small">
                {t("meta", {
                  format: synthesis.format ?? "unknown",
                  finished: synthesis.finished_at
                    ? format.dateTime(synthesis.finished_at, { dateStyle: "medium", timeStyle: "short" })
                    : "—",
                })}
              </p>
              {narrativeInEnglish(synthesis.format, synthesis.report, locale) ? (
                <p className="muted small" data-testid="narrative-english">
                  {t("narrativeEnglish")}
                </p>
              ) : null}
              {synthesis.format === "v2" ? (
                <ReportV2View
                  report={synthesis.report as unknown as ReportV2}
                  locale={locale}
                  pipelineId={pipeline.id}
                  executionId={synthesis.execution_id}
                />
              ) : synthesis.format === "v1" ? (
                <ReportV1View report={synthesis.report} />
              ) : (
                <div className="stack-sm">
                  <p className="alert">{t("unknownFormat")}</p>
                  <KeyValues value={synthesis.report} />
                </div>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
