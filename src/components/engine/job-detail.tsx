"use client";

import { useQuery } from "@tanstack/react-query";
import { useFormats } from "@/i18n/use-formats";
import { useTranslations } from "next-intl";
import { LocalTime } from "@/components/local-time";
import { pollUnlessAccessLost } from "@/trpc/access-lost";
import { useTRPC } from "@/trpc/react";
import { ENGINE_POLL_MS } from "./batches-table";
import { CallbackError, CallbackKind, EventDetail, JobError } from "./event-detail";
import { JobActions } from "./job-actions";
import { JobReviews } from "./job-reviews";
import { QueryState, versionLabel } from "./progress";
import { ShortId } from "@/components/short-id";
import { AnalyseButton } from "./forms/analyse-button";
import { AnalysePlace } from "./forms/analyse-place";
import { PlaceLabel } from "./place-label";
import { StatusBadge } from "@/components/ui/status-badge";
import { ScrollRegion } from "@/components/widgets/scroll-region";

/** One job: its fields, the timeline of its states, the reviews collected (paged) and every callback attempt. */
export function JobDetail({ jobId }: { jobId: string }) {
  const t = useTranslations("engine");
  const f = useFormats();
  const tt = useTranslations("truth");
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.scrape.job.queryOptions({ job_id: jobId }),
    refetchInterval: pollUnlessAccessLost(ENGINE_POLL_MS),
  });
  const d = query.data;
  if (!d) return <QueryState loading={query.isPending} error={query.isError} empty={false} />;
  const j = d.job;
  return (
    <div className="stack">
      <div className="card stack-sm">
        <div className="row-between">
          <h2>
            <PlaceLabel name={j.place_name} placeKey={j.platform_id ?? j.place_url} placeId={j.place_id} />
          </h2>
          <StatusBadge status={j.status} />
        </div>
        <dl className="stack-sm">
          <dt>{t("jobId")}</dt>
          <dd>
            <ShortId id={j.id} full />
          </dd>
          <dt>{t("client")}</dt>
          <dd>{j.requester_client_id}</dd>
          <dt>{t("version")}</dt>
          <dd>{versionLabel(j.scraper_version, j.scraper_variant, tt("noVersion"))}</dd>
          <dt>{t("reviews")}</dt>
          <dd>{f.number(j.review_count)}</dd>
          <dt>{t("attempts")}</dt>
          <dd>{j.attempts}</dd>
          {j.coverage.collected > 0 || j.coverage.stop_reason ? (
            <>
              <dt>{t("coverage")}</dt>
              <dd>
                {j.coverage.platform_total !== null
                  ? t("coverageOf", {
                      collected: j.coverage.collected,
                      total: j.coverage.platform_total,
                      percent: Math.round((j.coverage.share ?? 0) * 1000) / 10,
                    })
                  : t("coverageCollected", { collected: j.coverage.collected })}
              </dd>
              {j.coverage.oldest_review_at ? (
                <>
                  <dt>{t("oldestReview")}</dt>
                  <dd>
                    <LocalTime iso={j.coverage.oldest_review_at.toISOString()} withTime={false} />
                  </dd>
                </>
              ) : null}
              {j.coverage.stop_reason ? (
                <>
                  <dt>{t("stoppedBecause")}</dt>
                  <dd>{t(`stopReason.${j.coverage.stop_reason}`)}</dd>
                </>
              ) : null}
            </>
          ) : null}
          {j.error_class ? (
            <>
              <dt>{t("error")}</dt>
              <dd>
                <JobError errorClass={j.error_class} message={j.error_message} />
              </dd>
            </>
          ) : null}
          {j.batch_id ? (
            <>
              <dt>{t("batch")}</dt>
              <dd>
                <ShortId id={j.batch_id} href={`/engine/batches/${j.batch_id}`} full />
              </dd>
            </>
          ) : null}
          <dt>{t("callbackTitle")}</dt>
          <dd>{j.callback_url ? t("callbackState", { state: t(`callback.${j.callback_state}`) }) : t("noCallback")}</dd>
        </dl>
        <JobActions jobId={jobId} status={j.status} cancelRequested={j.cancel_requested_at !== null} />
        <div className="row">
          <AnalyseButton target={{ job_ids: [j.id] }} />
          {j.place_id ? <AnalysePlace placeId={j.place_id} /> : null}
        </div>
      </div>
      <h2>{t("timeline")}</h2>
      <ol className="list" aria-label={t("timeline")}>
        {d.events.map((e, i) => (
          <li key={i}>
            <strong>{t(`jobStatus.${e.status}`)}</strong> <LocalTime iso={e.at.toISOString()} />
            <EventDetail detail={e.detail as Record<string, unknown>} />
          </li>
        ))}
      </ol>
      <JobReviews jobId={jobId} total={j.review_count} />
      <h2>{t("callbackAttempts")}</h2>
      {d.callbacks.length === 0 ? (
        <p className="muted">{t("noCallbacks")}</p>
      ) : (
        d.callbacks.map((c) => (
          <div key={c.id} className="card stack-sm">
            <p>
              <strong>
                <CallbackKind kind={c.kind} />
              </strong>{" "}
              {t(`callback.${c.state}`)}
            </p>
            <p className="small">
              {t("webhookId")}: <ShortId id={c.webhook_id} full />
            </p>
            <ScrollRegion label={t("callbackAttempts")} cards>
              <table>
                <thead>
                  <tr>
                    <th>{t("attempt")}</th>
                    <th>{t("statusCode")}</th>
                    <th>{t("error")}</th>
                    <th>{t("duration")}</th>
                    <th>{t("at")}</th>
                  </tr>
                </thead>
                <tbody>
                  {c.attempt_log.map((a) => (
                    <tr key={a.attempt}>
                      <td>{a.attempt}</td>
                      <td>{a.status_code}</td>
                      <td>
                        <CallbackError error={a.error} />
                      </td>
                      <td>{t("ms", { value: a.duration_ms })}</td>
                      <td>
                        <LocalTime iso={a.at.toISOString()} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </div>
        ))
      )}
    </div>
  );
}
