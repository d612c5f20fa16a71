import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { setRequestLocale } from "next-intl/server";
import { ExecutionLive } from "@/components/pipelines/execution-live";
import { findPipeline, loadPipeline } from "@/components/pipelines/load-pipeline";
import { executionExists } from "@/trpc/load-engine";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { isUuid } from "@/server/core/ids";
import { notFoundTitle, pipelineTitle } from "@/i18n/page-titles";

const historyTitle = pipelineTitle("executions");

/** The run's title, or "Page not found" when the run is absent (the page answers 404). */
export async function generateMetadata(props: {
  params: Promise<{ locale: string; pipelineId: string; executionId: string }>;
}): Promise<Metadata> {
  const { locale, pipelineId, executionId } = await props.params;
  const pipeline = await findPipeline(locale, pipelineId);
  if (!pipeline || !isUuid(executionId) || !(await executionExists(pipeline.id, executionId))) {
    return notFoundTitle(locale);
  }
  return historyTitle(props);
}

export default async function ExecutionPage({
  params,
}: {
  params: Promise<{ locale: string; pipelineId: string; executionId: string }>;
}) {
  const { locale, pipelineId, executionId } = await params;
  setRequestLocale(locale);
  if (!isUuid(executionId)) notFound();
  const pipeline = await loadPipeline(locale, pipelineId);
  if (!(await executionExists(pipeline.id, executionId))) notFound();
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
