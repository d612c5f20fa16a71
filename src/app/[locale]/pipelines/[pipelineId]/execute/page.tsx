import { getTranslations, setRequestLocale } from "next-intl/server";
import { ExecuteForm } from "@/components/pipelines/execute-form";
import { loadPipeline } from "@/components/pipelines/load-pipeline";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { pipelineTitle } from "@/i18n/page-titles";

export const generateMetadata = pipelineTitle("execute");

export default async function ExecutePage({ params }: { params: Promise<{ locale: string; pipelineId: string }> }) {
  const { locale, pipelineId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("pipelines.execute");
  const pipeline = await loadPipeline(locale, pipelineId);
  return (
    <section className="stack">
      <PipelineTabs pipelineId={pipeline.id} name={pipeline.name} current="execute" />
      <p className="muted">{t("lead")}</p>
      <ExecuteForm
        pipelineId={pipeline.id}
        schema={pipeline.input_schema}
        stageNames={Object.fromEntries(pipeline.stages.map((s) => [s.id, s.name]))}
      />
    </section>
  );
}
