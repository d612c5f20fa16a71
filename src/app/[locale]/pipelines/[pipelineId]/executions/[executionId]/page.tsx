import { notFound } from "next/navigation";
import { setRequestLocale } from "next-intl/server";
import { ExecutionLive } from "@/components/pipelines/execution-live";
import { loadPipeline } from "@/components/pipelines/load-pipeline";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { isUuid } from "@/server/core/ids";
import { pipelineTitle } from "@/i18n/page-titles";

export const generateMetadata = pipelineTitle("executions");

export default async function ExecutionPage({
  params,
}: {
  params: Promise<{ locale: string; pipelineId: string; executionId: string }>;
}) {
  const { locale, pipelineId, executionId } = await params;
  setRequestLocale(locale);
  if (!isUuid(executionId)) notFound();
  const pipeline = await loadPipeline(locale, pipelineId);
  return (
    <section className="stack">
      <PipelineTabs pipelineId={pipeline.id} name={pipeline.name} current="executions" />
      <ExecutionLive
        pipelineId={pipeline.id}
        executionId={executionId}
        stageNames={Object.fromEntries(pipeline.stages.map((s) => [s.id, s.name]))}
      />
    </section>
  );
}
