import { getTranslations, setRequestLocale } from "next-intl/server";
import { ExecutionsHistory } from "@/components/pipelines/executions-history";
import { loadPipeline } from "@/components/pipelines/load-pipeline";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { pipelineTitle } from "@/i18n/page-titles";

export const generateMetadata = pipelineTitle("executions");

export default async function ExecutionsPage({ params }: { params: Promise<{ locale: string; pipelineId: string }> }) {
  const { locale, pipelineId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("pipelines.history");
  const pipeline = await loadPipeline(locale, pipelineId);
  return (
    <section className="stack">
      <PipelineTabs pipelineId={pipeline.id} name={pipeline.name} current="executions" />
      <p className="muted">{t("lead")}</p>
      <ExecutionsHistory pipelineId={pipeline.id} stageIds={pipeline.stages.map((s) => s.id)} />
    </section>
  );
}
