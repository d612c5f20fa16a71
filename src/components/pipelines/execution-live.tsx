"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Link } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { StageProgress } from "./stage-progress";
import { StatusBadge } from "./status-badge";

export const EXECUTION_POLL_MS = 1000;

/** One execution, polled every second while it is queued or running. */
export function ExecutionLive({
  pipelineId,
  executionId,
  stageNames,
}: {
  pipelineId: string;
  executionId: string;
  stageNames: Record<string, string>;
}) {
  const t = useTranslations("pipelines.progress");
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.pipelines.execution.queryOptions({ pipeline_id: pipelineId, execution_id: executionId }),
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === "succeeded" || q.state.data.status === "failed")
        ? false
        : EXECUTION_POLL_MS,
    staleTime: 0,
  });
  if (query.isPending)
    return (
      <p className="muted" role="status">
        {t("loading")}
      </p>
    );
  if (query.isError)
    return (
      <p className="alert" role="alert">
        {t("loadFailed")}
      </p>
    );
  const e = query.data;
  // A run over no reviews is not a plain success: its badge says so and the reason is shown instead of the links.
  const empty = e.status === "succeeded" && e.review_count === 0;
  return (
    <div className="card stack-sm" data-execution-id={e.id} data-execution-status={e.status}>
      <div className="row-between">
        <h2>{t("title")}</h2>
        <StatusBadge status={empty ? "empty" : e.status} testId="execution-status" />
      </div>
      <StageProgress execution={e} stageNames={stageNames} />
      {empty ? (
        <p className="notice" data-state="no-reviews" data-reason={e.empty_reason ?? undefined} role="status">
          {t("noReviews")}{" "}
          {e.empty_reason && t.has(`emptyReasons.${e.empty_reason}`) ? t(`emptyReasons.${e.empty_reason}`) : null}
        </p>
      ) : null}
      {e.status === "succeeded" && !empty ? (
        <p className="row">
          <Link className="button" href={`/pipelines/${pipelineId}?execution=${e.id}`}>
            {t("openDashboard")}
          </Link>
          <Link className="button secondary" href={`/pipelines/${pipelineId}/report?execution=${e.id}`}>
            {t("openReport")}
          </Link>
          <Link className="button secondary" href={`/pipelines/${pipelineId}/executions/${e.id}/replies`}>
            {t("openReplies")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
