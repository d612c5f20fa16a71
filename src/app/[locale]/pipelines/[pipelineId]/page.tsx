import { getTranslations, setRequestLocale } from "next-intl/server";
import { DashboardGrid } from "@/components/pipelines/dashboard-grid";
import { loadPipeline } from "@/components/pipelines/load-pipeline";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { serverCaller } from "@/trpc/server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function PipelineDashboardPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string; pipelineId: string }>;
  searchParams: Promise<{ execution?: string }>;
}) {
  const { locale, pipelineId } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("pipelines.dashboard");
  const pipeline = await loadPipeline(pipelineId);
  const execution = (await searchParams).execution;
  const executionId = execution && UUID.test(execution) ? execution : undefined;
  const { widgets } = await (await serverCaller()).pipelines.dashboard({ pipeline_id: pipeline.id });
  return (
    <section className="stack">
      <PipelineTabs pipelineId={pipeline.id} name={pipeline.name} current="dashboard" />
      <p className="muted">{executionId ? t("forExecution", { id: executionId }) : t("newest")}</p>
      <DashboardGrid pipelineId={pipeline.id} widgets={widgets} executionId={executionId} />
    </section>
  );
}
