"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { LocalTime } from "@/components/local-time";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { useTRPC } from "@/trpc/react";
import { QueryState } from "./progress";

/** Reviews a page of the job page shows. */
const PAGE = 50;

/**
 * Every review a job collected, 50 at a time through the keyset cursor (Previous goes back through
 * the cursors already seen), and the whole set as CSV (with a byte-order mark for spreadsheet
 * programs) or NDJSON (docs/review-engine.md, "Reviews out").
 */
export function JobReviews({ jobId, total }: { jobId: string; total: number }) {
  const t = useTranslations("engine");
  const trpc = useTRPC();
  const client = useQueryClient();
  // The job's count changed (a run ended, a retry started): the pages read before are stale.
  useEffect(() => {
    void client.invalidateQueries({ queryKey: trpc.scrape.jobReviews.pathKey() });
  }, [client, trpc, total]);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery({
    ...trpc.scrape.jobReviews.queryOptions({ job_id: jobId, limit: PAGE, ...(cursor ? { cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const exportUrl = (format: "csv" | "ndjson") =>
    `/api/jobs/${jobId}/reviews/export?format=${format}${format === "csv" ? "&bom=true" : ""}`;
  const items = query.data?.items ?? [];
  // Shown while the page asked for loads (keepPreviousData): paging waits for it, so a quick second
  // click cannot follow the old page's cursor again.
  const stale = query.isPlaceholderData;
  const from = (cursors.length - 1) * PAGE + 1;
  return (
    <div className="stack-sm">
      <div className="row-between">
        <h2>{t("reviewsTitle")}</h2>
        {total > 0 ? (
          <div className="row">
            <a className="button secondary small" href={exportUrl("csv")} download>
              {t("downloadCsv")}
            </a>
            <a className="button secondary small" href={exportUrl("ndjson")} download>
              {t("downloadNdjson")}
            </a>
          </div>
        ) : null}
      </div>
      {!query.data ? (
        <QueryState loading={query.isPending} error={query.isError} empty={false} />
      ) : items.length === 0 ? (
        <p className="muted">{t("noReviews")}</p>
      ) : (
        <>
          <ScrollRegion label={t("reviewsTitle")} cards>
            <table>
              <thead>
                <tr>
                  <th>{t("author")}</th>
                  <th>{t("rating")}</th>
                  <th>{t("language")}</th>
                  <th>{t("published")}</th>
                  <th>{t("text")}</th>
                  <th>{t("ownerReply")}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((r) => (
                  <tr key={r.id}>
                    <td>{r.author}</td>
                    <td>{r.rating}</td>
                    <td>{r.language}</td>
                    <td>{r.published_at ? <LocalTime iso={r.published_at.toISOString()} withTime={false} /> : null}</td>
                    <td>{r.text}</td>
                    <td>{r.owner_reply}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <div className="row-between">
            <span className="muted small" aria-live="polite">
              {/* While the next page loads, the previous one stays shown: its range is not claimed for the new page. */}
              {stale
                ? t("loading")
                : t("reviewsRange", {
                    from,
                    to: from + items.length - 1,
                    total: Math.max(total, from + items.length - 1),
                  })}
            </span>
            <div className="row">
              <button
                type="button"
                className="button secondary small"
                disabled={cursors.length === 1 || stale}
                onClick={() => setCursors((c) => c.slice(0, -1))}
              >
                {t("previousPage")}
              </button>
              <button
                type="button"
                className="button secondary small"
                disabled={!query.data.next_cursor || stale}
                onClick={() => setCursors((c) => [...c, query.data?.next_cursor ?? undefined])}
              >
                {t("nextPage")}
              </button>
            </div>
          </div>
        </>
      )}
    </div>
  );
}
