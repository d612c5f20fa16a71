"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { Link } from "@/i18n/navigation";
import { useTRPC } from "@/trpc/react";
import { StageTimingChart } from "./stage-timing-chart";
import { StatusBadge } from "./status-badge";
import { ButtonPager } from "@/components/ui/button-pager";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { humanize, KeyValues } from "@/components/key-values";
import { SelectField } from "@/components/ui/select-field";
import { ListState } from "@/components/ui/states";

const STATUSES = ["queued", "running", "succeeded", "failed"] as const;
const SORTS = ["newest", "oldest", "slowest", "fastest"] as const;
const PAGE_SIZE = 10;

/** Execution history: filter by status, pages, a stage-timing chart, and a re-run button on failed runs. */
export function ExecutionsHistory({ pipelineId, stageIds }: { pipelineId: string; stageIds: string[] }) {
  const t = useTranslations("pipelines.history");
  const ts = useTranslations("pipelines.status");
  const tf = useTranslations("pipelines.fields");
  const tstage = useTranslations("pipelines.stages");
  const format = useFormatter();
  const trpc = useTRPC();
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<(typeof STATUSES)[number] | "">("");
  const [sort, setSort] = useState<(typeof SORTS)[number]>("newest");
  const input = { pipeline_id: pipelineId, page, pageSize: PAGE_SIZE, sort, ...(status ? { status } : {}) };
  const query = useQuery({
    ...trpc.pipelines.executions.queryOptions(input),
    refetchInterval: (q) =>
      q.state.data?.items.some((e) => e.status === "queued" || e.status === "running") ? 2000 : false,
  });
  const rerun = useMutation(
    trpc.pipelines.rerun.mutationOptions({
      onSuccess: () => client.invalidateQueries({ queryKey: trpc.pipelines.executions.pathKey() }),
    }),
  );
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / PAGE_SIZE)) : 1;
  return (
    <div className="stack">
      <div className="row">
        <SelectField
          inline
          label={t("sort")}
          value={sort}
          options={SORTS}
          optionLabel={(s) => t(`sorts.${s}`)}
          onChange={(s) => (setSort(s || sort), setPage(1))}
        />
        <SelectField
          inline
          label={t("filter")}
          value={status}
          options={STATUSES}
          optionLabel={ts}
          onChange={(s) => (setStatus(s), setPage(1))}
          allLabel={t("all")}
        />
      </div>
      {query.isPending || query.isError || query.data.items.length === 0 ? (
        <ListState
          loading={query.isPending}
          error={query.isError}
          empty
          labels={{ loading: t("loading"), error: t("loadFailed"), empty: t("empty") }}
        />
      ) : (
        <>
          <section className="card stack-sm">
            <h2>{t("timingTitle")}</h2>
            <StageTimingChart executions={query.data.items} stageIds={stageIds} />
          </section>
          <ScrollRegion label={t("tableLabel")}>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t("queuedAt")}</th>
                  <th scope="col">{t("status")}</th>
                  <th scope="col">{t("input")}</th>
                  <th scope="col">{t("duration")}</th>
                  <th scope="col">{t("attempt")}</th>
                  <th scope="col">{t("actions")}</th>
                </tr>
              </thead>
              <tbody>
                {query.data.items.map((e) => (
                  <tr key={e.id} data-execution-id={e.id}>
                    <td>{format.dateTime(e.queued_at, { dateStyle: "medium", timeStyle: "short" })}</td>
                    <td>
                      <StatusBadge status={e.status === "succeeded" && e.review_count === 0 ? "empty" : e.status} />
                      {e.failed_stage ? (
                        <span className="small field-error">
                          {" "}
                          {t("failedAt", {
                            stage: tstage.has(e.failed_stage) ? tstage(e.failed_stage) : e.failed_stage,
                          })}
                        </span>
                      ) : null}
                    </td>
                    <td className="small">
                      <KeyValues
                        value={e.input as Record<string, unknown>}
                        labelOf={(k) => (tf.has(k) ? tf(k) : humanize(k))}
                      />
                    </td>
                    <td>{e.total_duration_ms !== null ? `${format.number(e.total_duration_ms)} ms` : "—"}</td>
                    <td>{e.attempt}</td>
                    <td className="row">
                      <Link href={`/pipelines/${pipelineId}/executions/${e.id}`}>{t("details")}</Link>
                      {e.status === "succeeded" ? (
                        <Link href={`/pipelines/${pipelineId}/report?execution=${e.id}`}>{t("report")}</Link>
                      ) : null}
                      {e.status === "failed" ? (
                        <button
                          type="button"
                          className="button secondary small"
                          disabled={rerun.isPending}
                          onClick={() => rerun.mutate({ pipeline_id: pipelineId, execution_id: e.id })}
                        >
                          {t("rerun")}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          {rerun.isError ? (
            <p className="alert" role="alert">
              {t("rerunFailed")}
            </p>
          ) : null}
          {pages > 1 ? (
            <ButtonPager
              page={page}
              pages={pages}
              onPage={setPage}
              label={t("pageOf", { page, pages })}
              summary={t("pageOf", { page, pages })}
            />
          ) : null}
        </>
      )}
    </div>
  );
}
