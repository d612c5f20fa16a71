"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useFormats } from "@/i18n/use-formats";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { Link } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { ENGINE_POLL_MS } from "./batches-table";
import { Pager, QueryState, SortHeader, SearchStatusFilters } from "./progress";
import { NextRun, ScheduleMode, ScheduleStatusBadge, ScheduleWhen } from "./schedule-parts";
import { ShortId } from "@/components/short-id";
import { EmptyState } from "@/components/ui/states";

const STATUSES = ["active", "paused"] as const;

/** Where the API is described (the schedules are created over it). */
export const API_DESCRIPTION_URL = "/api/openapi.json";
/** The endpoint that creates a schedule (docs/review-engine.md, "Monitoring"). */
const CREATE_ENDPOINT = "POST /api/schedules";

/** What an empty list says: how schedules come to be (over the API), or that the filters match none. */
function NoSchedules({ filtered }: { filtered: boolean }) {
  const t = useTranslations("engine");
  if (filtered) return <EmptyState title={t("schedule.noMatch")} />;
  return (
    <div className="card stack-sm" data-testid="schedules-empty">
      <p>{t("schedule.emptyTitle")}</p>
      <p className="muted">
        {t("schedule.emptyHow")} <code>{CREATE_ENDPOINT}</code>
      </p>
      <p>
        <a href={API_DESCRIPTION_URL}>{t("schedule.apiDescription")}</a>
      </p>
    </div>
  );
}

/** Monitoring schedules (polled every 2 s) with search, status filter, sorting and pages. */
export function SchedulesTable() {
  const t = useTranslations("engine");
  const f = useFormats();
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState("");
  const [status, setStatus] = useState<(typeof STATUSES)[number] | "">("");
  const [sort, setSort] = useState<"created_at" | "next_run_at" | "name">("created_at");
  const [dir, setDir] = useState<"asc" | "desc">("desc");
  const query = useQuery({
    ...trpc.scrape.schedules.list.queryOptions({
      page,
      pageSize: 20,
      q: q || undefined,
      status: status || undefined,
      sort,
      dir,
    }),
    refetchInterval: ENGINE_POLL_MS,
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const onSort = (k: typeof sort, d: typeof dir) => (setSort(k), setDir(d), setPage(1));
  return (
    <div className="stack">
      <SearchStatusFilters
        q={q}
        onQ={(value) => (setQ(value), setPage(1))}
        status={status}
        onStatus={(value) => (setStatus(value), setPage(1))}
        statuses={STATUSES}
        statusLabel={(s) => t(`scheduleStatus.${s}`)}
      />
      <QueryState loading={query.isPending} error={query.isError} empty={false} />
      {data && data.total === 0 ? <NoSchedules filtered={Boolean(q.trim() || status)} /> : null}
      {data && data.total > 0 ? (
        <ScrollRegion label={t("schedulesTitle")}>
          <table>
            <thead>
              <tr>
                <SortHeader label={t("schedule.name")} k="name" sort={sort} dir={dir} onSort={onSort} />
                <th>{t("client")}</th>
                <th>{t("status")}</th>
                <th>{t("schedule.when")}</th>
                <th>{t("schedule.mode")}</th>
                <SortHeader label={t("schedule.nextRun")} k="next_run_at" sort={sort} dir={dir} onSort={onSort} />
                <th>{t("schedule.lastRun")}</th>
                <th>{t("schedule.runs")}</th>
                <th>{t("schedule.lastError")}</th>
                <SortHeader label={t("created")} k="created_at" sort={sort} dir={dir} onSort={onSort} />
              </tr>
            </thead>
            <tbody>
              {data.items.map((s) => (
                <tr key={s.id} data-schedule-id={s.id}>
                  <td>
                    {s.name ? (
                      <Link href={`/engine/schedules/${s.id}`}>{s.name}</Link>
                    ) : (
                      <ShortId id={s.id} href={`/engine/schedules/${s.id}`} />
                    )}
                  </td>
                  <td>{s.requester_client_id}</td>
                  <td>
                    <ScheduleStatusBadge status={s.status} />
                  </td>
                  <td>
                    <ScheduleWhen cron={s.cron} intervalSeconds={s.interval_seconds} />
                  </td>
                  <td>
                    <ScheduleMode mode={s.mode} stopAfterKnown={s.stop_after_known} />
                  </td>
                  <td>
                    <NextRun status={s.status} at={s.next_run_at} />
                  </td>
                  <td>{s.last_run_at ? <LocalTime iso={s.last_run_at.toISOString()} /> : t("never")}</td>
                  <td>{f.number(s.run_count)}</td>
                  <td>{s.last_error ? <code>{s.last_error}</code> : ""}</td>
                  <td>
                    <LocalTime iso={s.created_at.toISOString()} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
      {data ? <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} /> : null}
    </div>
  );
}
