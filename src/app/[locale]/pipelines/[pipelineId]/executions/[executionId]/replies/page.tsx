import { notFound } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { loadPipeline } from "@/components/pipelines/load-pipeline";
import { PipelineTabs } from "@/components/pipelines/pipeline-tabs";
import { ReplyDrafts } from "@/components/pipelines/reply-drafts";
import { BackLink } from "@/components/ui/back-link";
import { titleFrom } from "@/i18n/metadata";
import { isUuid } from "@/server/core/ids";
import { executionExists } from "@/trpc/load-engine";

export const generateMetadata = titleFrom("pipelines.replies", "title");

/** The reply drafts of one run: the reviews that need an answer, each with its draft (docs/pipelines.md, "Reply drafts"). */
export default async function RepliesPage({
  params,
}: {
  params: Promise<{ locale: string; pipelineId: string; executionId: string }>;
}) {
  const { locale, pipelineId, executionId } = await params;
  setRequestLocale(locale);
  if (!isUuid(executionId)) notFound();
  const pipeline = await loadPipeline(locale, pipelineId);
  if (!(await executionExists(pipeline.id, executionId))) notFound();
  const t = await getTranslations("pipelines.replies");
  return (
    <section className="stack">
      <PipelineTabs pipelineId={pipeline.id} name={pipeline.name} current="executions" />
      <BackLink href={`/pipelines/${pipeline.id}/executions/${executionId}`}>{t("backToRun")}</BackLink>
      <h2>{t("title")}</h2>
      <p className="muted">{t("lead")}</p>
      <ReplyDrafts pipelineId={pipeline.id} executionId={executionId} />
    </section>
  );
}
