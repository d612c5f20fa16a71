"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Fragment } from "react";
import { LocalTime } from "@/components/local-time";
import { Link } from "@/i18n/navigation";
import type { THomeEngineOut } from "@/server/services/home/home-overview.schema";
import { useTRPC } from "@/trpc/react";
import { HOME_POLL_MS } from "./home-config";
import { StatusBadge } from "@/components/ui/status-badge";

type Job = THomeEngineOut["jobs"][number];
type Run = THomeEngineOut["executions"][number];
/** Places a run's link names before the rest is counted. */
const SHOWN_PLACES = 2;

/**
 * An administrator's view of the review engine on the home page: the newest jobs and pipeline runs,
 * each linked to its page (a finished run to its report), refreshed like the meshes. Only rendered
 * for administrators; the procedure refuses everybody else.
 */
export function EngineOverview({ initial }: { initial: THomeEngineOut }) {
  const t = useTranslations("home.engine");
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.admin.homeEngine.queryOptions(),
    initialData: initial,
    staleTime: HOME_POLL_MS,
    refetchInterval: HOME_POLL_MS,
    refetchIntervalInBackground: false,
  });
  const { jobs, executions } = query.data;
  return (
    <div className="home-panels">
      <section className="card stack-sm" aria-labelledby="home-jobs">
        <h2 id="home-jobs">{t("jobsTitle")}</h2>
        {jobs.length === 0 ? (
          <p className="muted">
            {t("jobsEmpty")} <Link href="/engine/api-keys">{t("createKey")}</Link>
          </p>
        ) : (
          <>
            <ul className="home-list">
              {jobs.map((job) => (
                <JobItem key={job.id} job={job} />
              ))}
            </ul>
            <p>
              <Link href="/engine/jobs">{t("allJobs")}</Link>
            </p>
          </>
        )}
      </section>
      <section className="card stack-sm" aria-labelledby="home-runs">
        <h2 id="home-runs">{t("runsTitle")}</h2>
        {executions.length === 0 ? (
          <p className="muted">
            {t("runsEmpty")} <Link href="/pipelines">{t("runPipeline")}</Link>
          </p>
        ) : (
          <>
            <ul className="home-list">
              {executions.map((run) => (
                <RunItem key={run.id} run={run} />
              ))}
            </ul>
            <p>
              <Link href="/pipelines">{t("allPipelines")}</Link>
            </p>
          </>
        )}
      </section>
    </div>
  );
}

/** A place by its name, or by its key (in monospace) when the platform gave no name. */
function PlaceName({ place }: { place: Job["place"] }) {
  return place.name ? <>{place.name}</> : <code>{place.key}</code>;
}

function JobItem({ job }: { job: Job }) {
  const t = useTranslations("home.engine");
  return (
    <li data-testid="home-job">
      <span className="home-item">
        <Link href={`/engine/jobs/${job.id}`}>
          {job.place.name || job.place.key ? <PlaceName place={job.place} /> : t("noPlace")}
        </Link>
        <span className="muted small">
          {t("reviews", { count: job.reviewCount })} · <LocalTime iso={job.createdAt.toISOString()} />
        </span>
      </span>
      <StatusBadge status={job.status} />
    </li>
  );
}

function RunItem({ run }: { run: Run }) {
  const t = useTranslations("home.engine");
  const tp = useTranslations("pipelines");
  const shown = run.places.slice(0, SHOWN_PLACES);
  const more = run.places.length - shown.length;
  const href =
    run.status === "succeeded"
      ? `/pipelines/${run.pipelineId}/report?execution=${run.id}`
      : `/pipelines/${run.pipelineId}/executions/${run.id}`;
  return (
    <li data-testid="home-run">
      <span className="home-item">
        <Link href={href}>
          {shown.length === 0
            ? t("noPlace")
            : shown.map((p, i) => (
                <Fragment key={`${p.key}-${i}`}>
                  {i > 0 ? " · " : null}
                  <PlaceName place={p} />
                </Fragment>
              ))}
          {more > 0 ? ` ${t("morePlaces", { count: more })}` : null}
        </Link>
        <span className="muted small">
          {tp.has(`names.${run.pipelineId}`) ? tp(`names.${run.pipelineId}`) : run.pipelineName}
          {run.reviewCount !== null ? <> · {t("reviews", { count: run.reviewCount })}</> : null} ·{" "}
          <LocalTime iso={(run.finishedAt ?? run.createdAt).toISOString()} />
        </span>
      </span>
      {/* A run over no reviews is not shown as a success (docs/pipelines.md, "Runs over nothing"). */}
      <StatusBadge status={run.status === "succeeded" && run.reviewCount === 0 ? "empty" : run.status} />
    </li>
  );
}
