import { setRequestLocale } from "next-intl/server";
import { DashboardGrid } from "@/components/pipelines/dashboard-grid";
import { ExecutionHeading } from "@/components/pipelines/execution-heading";
import { ExecutionPicker } from "@/components/pipelines/execution-picker";
import { loadPipeline, loadSelection } from "@/components/pipelines/load-pipeline";
import { NoRun } from "@/components/pipelines/no-run";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { serverCaller } from "@/trpc/server";
import { pipelineTitle } from "@/i18n/page-titles";

export const generateMetadata = pipelineTitle();

export default async function PipelineDashboardPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string; pipelineId: string }>;
  searchParams: Promise<{ execution?: string }>;
}) {
  const { locale, pipelineId } = await params;
  setRequestLocale(locale);
  const pipeline = await loadPipeline(locale, pipelineId);
  const { current, choices, chosen } = await loadSelection(pipeline.id, (await searchParams).execution);
  const { widgets } = await (await serverCaller()).pipelines.dashboard({ pipeline_id: pipeline.id });
  return (
    <section className="stack">
      <PipelineTabs
        pipelineId={pipeline.id}
        name={pipeline.name}
        current="dashboard"
        executionId={chosen ? current?.id : undefined}
      />
      {!current ? (
        <NoRun pipelineId={pipeline.id} reason="none" />
      ) : (
        <>
          <ExecutionHeading run={current} chosen={chosen} />
          <ExecutionPicker runs={choices} currentId={current.id} />
          {current.review_count === 0 ? (
            <NoRun pipelineId={pipeline.id} reason="no_reviews" />
          ) : (
            // Every widget reads this one execution, so the page never mixes two runs.
            <DashboardGrid pipelineId={pipeline.id} widgets={widgets} executionId={current.id} />
          )}
        </>
      )}
    </section>
  );
}
