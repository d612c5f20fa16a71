"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useFormats } from "@/i18n/use-formats";
import { useTranslations } from "next-intl";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import { Link } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { BatchProgress, Pager, QueryState, SortHeader, SearchStatusFilters } from "./progress";
import { ShortId } from "@/components/short-id";
import { StatusBadge } from "@/components/ui/status-badge";

const STATUSES = ["queued", "running", "completed", "cancelled"] as const;
export const ENGINE_POLL_MS = 2000;

/** Batches with live progress bars (polled every 2 s), search, status filter, sorting and pages. */
export function BatchesTable() {
  const t = useTranslations("engine");
  const f = useFormats();
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState("");
  const [status, setStatus] = useState<(typeof STATUSES)[number] | "">("");
  const [sort, setSort] = useState<"created_at" | "total_jobs">("created_at");
  const [dir, setDir] = useState<"asc" | "desc">("desc");
  const query = useQuery({
    ...trpc.scrape.batches.queryOptions({
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
  return (
    <div className="stack">
      <SearchStatusFilters
        q={q}
        onQ={(value) => (setQ(value), setPage(1))}
        status={status}
        onStatus={(value) => (setStatus(value), setPage(1))}
        statuses={STATUSES}
        statusLabel={(s) => t(`batchStatus.${s}`)}
      />
      <QueryState loading={query.isPending} error={query.isError} empty={data?.total === 0} />
      {data && data.total > 0 ? (
        <ScrollRegion label={t("batchesTitle")} cards>
          <table>
            <thead>
              <tr>
                <th>{t("batch")}</th>
                <th>{t("client")}</th>
                <th>{t("status")}</th>
                <SortHeader
                  label={t("jobsCount")}
                  k="total_jobs"
                  sort={sort}
                  dir={dir}
                  onSort={(k, d) => (setSort(k), setDir(d))}
                />
                <th>{t("progress")}</th>
                <SortHeader
                  label={t("created")}
                  k="created_at"
                  sort={sort}
                  dir={dir}
                  onSort={(k, d) => (setSort(k), setDir(d))}
                />
              </tr>
            </thead>
            <tbody>
              {data.items.map((b) => (
                <tr key={b.id} data-batch-id={b.id}>
                  <td>
                    {b.name ? (
                      <Link href={`/engine/batches/${b.id}`}>{b.name}</Link>
                    ) : (
                      <ShortId id={b.id} href={`/engine/batches/${b.id}`} />
                    )}
                  </td>
                  <td>{b.requester_client_id}</td>
                  <td>
                    <StatusBadge status={b.status} />
                  </td>
                  <td>{f.number(b.total_jobs)}</td>
                  <td>
                    <BatchProgress percent={b.percent} label={b.name ?? b.id} />
                  </td>
                  <td>
                    <LocalTime iso={b.created_at.toISOString()} />
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
