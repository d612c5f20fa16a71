"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useFormats } from "@/i18n/use-formats";
import { useTranslations } from "next-intl";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import { useTRPC } from "@/trpc/react";
import { ENGINE_POLL_MS } from "./batches-table";
import { Pager, QueryState, SortHeader, SearchStatusFilters } from "./progress";
import { ShortId } from "@/components/short-id";
import { PlaceLabel } from "./place-label";
import { StatusBadge } from "@/components/ui/status-badge";

const STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

/** Jobs (optionally of one batch), polled every 2 s, with search, status filter, sorting and pages. */
export function JobsTable({ batchId }: { batchId?: string }) {
  const t = useTranslations("engine");
  const f = useFormats();
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState("");
  const [status, setStatus] = useState<(typeof STATUSES)[number] | "">("");
  const [sort, setSort] = useState<"created_at" | "priority" | "finished_at">("created_at");
  const [dir, setDir] = useState<"asc" | "desc">("desc");
  const query = useQuery({
    ...trpc.scrape.jobs.queryOptions({
      page,
      pageSize: 25,
      q: q || undefined,
      status: status || undefined,
      batch_id: batchId,
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
        statusLabel={(s) => t(`jobStatus.${s}`)}
      />
      <QueryState loading={query.isPending} error={query.isError} empty={data?.total === 0} />
      {data && data.total > 0 ? (
        <ScrollRegion label={t("jobsTitle")} cards>
          <table>
            <thead>
              <tr>
                <th>{t("job")}</th>
                <th>{t("target")}</th>
                <th>{t("status")}</th>
                <th>{t("version")}</th>
                <SortHeader label={t("priority")} k="priority" sort={sort} dir={dir} onSort={onSort} />
                <th>{t("reviews")}</th>
                <th>{t("error")}</th>
                <SortHeader label={t("created")} k="created_at" sort={sort} dir={dir} onSort={onSort} />
                <SortHeader label={t("finished")} k="finished_at" sort={sort} dir={dir} onSort={onSort} />
              </tr>
            </thead>
            <tbody>
              {data.items.map((j) => (
                <tr key={j.id}>
                  <td>
                    <ShortId id={j.id} href={`/engine/jobs/${j.id}`} />
                  </td>
                  <td>
                    <PlaceLabel name={j.place_name} placeKey={j.platform_id ?? j.place_url} placeId={j.place_id} />
                  </td>
                  <td>
                    <StatusBadge status={j.status} />
                  </td>
                  <td>{j.scraper_version ? `${j.scraper_version}/${j.scraper_variant ?? ""}` : "—"}</td>
                  <td>{j.priority}</td>
                  <td>{f.number(j.review_count)}</td>
                  <td>{j.error_class ? t(`errorClass.${j.error_class}`) : ""}</td>
                  <td>
                    <LocalTime iso={j.created_at.toISOString()} />
                  </td>
                  <td>{j.finished_at ? <LocalTime iso={j.finished_at.toISOString()} /> : ""}</td>
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
