"use client";

import { useQuery } from "@tanstack/react-query";
import { useFormats } from "@/i18n/use-formats";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import { Link } from "@/i18n/navigation";
import { pollUnlessAccessLost } from "@/trpc/access-lost";
import { useTRPC } from "@/trpc/react";
import { ENGINE_POLL_MS } from "./batches-table";
import { AnalyseButton } from "./forms/analyse-button";
import { QueryState } from "./progress";
import { AlertRulesPanel } from "./alerts/alert-rules-panel";
import { AnalysisToggle } from "./alerts/analysis-toggle";
import { ScheduleActions } from "./schedule-actions";
import { ScheduleChart } from "./schedule-chart";
import { targetView } from "./schedule-format";
import { LastError, NextRun, ScheduleMode, ScheduleStatusBadge, ScheduleWhen } from "./schedule-parts";
import { ScheduleRuns } from "./schedule-runs";

/**
 * One monitoring schedule (polled every 2 s): its settings, pause/resume and delete, a chart of the
 * new, updated and unchanged reviews of its runs over time, and the runs with links to their batches.
 */
export function ScheduleDetail({ scheduleId }: { scheduleId: string }) {
  const t = useTranslations("engine");
  const tf = useTranslations("engineForms");
  const ta = useTranslations("alerts");
  const f = useFormats();
  const trpc = useTRPC();
  // Once deleted, the page stops asking for it while it goes back to the list.
  const [deleted, setDeleted] = useState(false);
  const query = useQuery({
    ...trpc.scrape.schedules.get.queryOptions({ schedule_id: scheduleId }),
    refetchInterval: pollUnlessAccessLost(ENGINE_POLL_MS),
    enabled: !deleted,
  });
  const s = query.data;
  const back = (
    <p>
      <Link href="/engine/schedules">{t("schedule.back")}</Link>
    </p>
  );
  if (deleted) {
    return (
      <p className="muted" role="status">
        {t("schedule.deleted")}
      </p>
    );
  }
  if (!s) {
    return (
      <div className="stack">
        {back}
        <QueryState loading={query.isPending} error={query.isError} empty={false} />
      </div>
    );
  }
  const withCounts = s.runs.some((r) => r.changes !== null);
  return (
    <div className="stack">
      {back}
      <div className="card stack-sm">
        <div className="row-between">
          <h2>{s.name ?? s.id}</h2>
          <ScheduleStatusBadge status={s.status} testId="schedule-status" />
        </div>
        <dl className="stack-sm">
          <dt>{t("client")}</dt>
          <dd>{s.requester_client_id}</dd>
          <dt>{t("schedule.when")}</dt>
          <dd>
            <ScheduleWhen cron={s.cron} intervalSeconds={s.interval_seconds} />
          </dd>
          <dt>{t("schedule.mode")}</dt>
          <dd>
            <ScheduleMode mode={s.mode} stopAfterKnown={s.stop_after_known} />
          </dd>
          <dt>{t("priority")}</dt>
          <dd>{s.priority}</dd>
          <dt>{t("schedule.targets")}</dt>
          <dd>
            <ul className="list" aria-label={t("schedule.targets")}>
              {s.targets.map((raw, i) => {
                const target = targetView(raw);
                return (
                  <li key={i}>
                    <code>{target.place}</code>
                    {target.reviewLimit !== null ? (
                      <span className="muted small"> · {t("schedule.reviewLimit", { count: target.reviewLimit })}</span>
                    ) : null}
                    {target.version ? (
                      <span className="muted small"> · {t("schedule.pinnedVersion", { version: target.version })}</span>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </dd>
          <dt>{ta("title")}</dt>
          <dd>
            <AnalysisToggle scheduleId={scheduleId} on={s.analyse_after_run} />
          </dd>
          <dt>{t("schedule.callbackUrl")}</dt>
          <dd>{s.callback_url ? <code>{s.callback_url}</code> : t("noCallback")}</dd>
          <dt>{t("schedule.nextRun")}</dt>
          <dd>
            <NextRun status={s.status} at={s.next_run_at} />
          </dd>
          <dt>{t("schedule.lastRun")}</dt>
          <dd>{s.last_run_at ? <LocalTime iso={s.last_run_at.toISOString()} /> : t("never")}</dd>
          <dt>{t("schedule.runs")}</dt>
          <dd>{f.number(s.run_count)}</dd>
          <dt>{t("created")}</dt>
          <dd>
            <LocalTime iso={s.created_at.toISOString()} />
          </dd>
          {s.last_error ? (
            <>
              <dt>{t("schedule.lastError")}</dt>
              <dd>
                <LastError code={s.last_error} />
              </dd>
            </>
          ) : null}
        </dl>
        <ScheduleActions scheduleId={scheduleId} status={s.status} onDeleted={() => setDeleted(true)} />
        {s.runs.length > 0 ? (
          // The reviews of the schedule's newest runs (at most 100 batches, as the run request takes).
          <AnalyseButton target={{ batch_ids: s.runs.slice(0, 100).map((r) => r.batch_id) }} />
        ) : (
          <p className="muted small">{tf("analyseNoRuns")}</p>
        )}
      </div>

      <section className="card stack-sm" aria-labelledby="schedule-changes">
        <h2 id="schedule-changes">{t("schedule.chartTitle")}</h2>
        {s.runs.length === 0 ? (
          <p className="muted" data-testid="schedule-no-runs">
            {s.status === "active" ? (
              <>
                {t("schedule.noRunsFirst")} <LocalTime iso={s.next_run_at.toISOString()} />
              </>
            ) : (
              t("schedule.noRunsPaused")
            )}
          </p>
        ) : withCounts ? (
          <ScheduleChart runs={s.runs} />
        ) : (
          <p className="muted">{t("schedule.chartPending")}</p>
        )}
      </section>

      {s.runs.length > 0 ? (
        <section className="stack-sm" aria-labelledby="schedule-runs">
          <h2 id="schedule-runs">{t("schedule.runsTitle")}</h2>
          {s.run_count > s.runs.length ? (
            <p className="muted small">{t("schedule.newestRuns", { shown: s.runs.length, total: s.run_count })}</p>
          ) : null}
          <ScheduleRuns runs={s.runs} />
        </section>
      ) : null}
      <AlertRulesPanel subject={{ schedule_id: scheduleId }} />
    </div>
  );
}
