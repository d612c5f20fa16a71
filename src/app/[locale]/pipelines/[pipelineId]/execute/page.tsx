import { getTranslations, setRequestLocale } from "next-intl/server";
import { ExecuteForm } from "@/components/pipelines/execute-form";
import { loadPipeline } from "@/components/pipelines/load-pipeline";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { pipelineTitle } from "@/i18n/page-titles";

export const generateMetadata = pipelineTitle("execute");

export default async function ExecutePage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string; pipelineId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { locale, pipelineId } = await params;
  // Only the schema's own fields, as text: the form shows them and the API validates them.
  const initial = Object.fromEntries(
    Object.entries(await searchParams).flatMap(([k, v]) =>
      typeof v === "string" && v.length <= 2000 ? [[k, v] as const] : [],
    ),
  );
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
        initial={initial}
      />
    </section>
  );
}
