"use client";

import { useQuery } from "@tanstack/react-query";
import { useFormats } from "@/i18n/use-formats";
import { useTranslations } from "next-intl";
import { ScrollRegion } from "@/components/widgets/scroll-region";
import { useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useChartFormat } from "@/components/widgets/chart-format";
import { useTRPC } from "@/trpc/react";
import { QueryState } from "./progress";
import { STACK_SERIES, statusStack, versionLabel } from "./status-stack";

const POLL = 5000;
const WINDOWS = [1, 24, 168, 720] as const;
const OK = "#2f8f46";
const BAD = "#c0392b";
const OTHER = "#8a8f98";
const CANCELLED = "#b7791f";
const FILL = { succeeded: OK, failed: BAD, cancelled: CANCELLED, open: OTHER } as const;

function Chart({ children, label }: { children: React.ReactElement; label: string }) {
  return (
    <figure style={{ width: "100%", height: 240, margin: 0 }} aria-label={label}>
      <ResponsiveContainer>{children}</ResponsiveContainer>
    </figure>
  );
}

/** The four dashboards of the engine (overview, by client, problems, by version) over a time window. */
export function Dashboards() {
  const f = useFormats();
  const cf = useChartFormat();
  const t = useTranslations("engine");
  const tt = useTranslations("truth");
  const trpc = useTRPC();
  const seriesName = (k: (typeof STACK_SERIES)[number]) => (k === "open" ? tt("openJobs") : t(`jobStatus.${k}`));
  // Stacked bars of every job of a row (statusStack): the bar is as high as the row's total.
  const stackBars = (stackId: string) =>
    STACK_SERIES.map((k) => (
      <Bar key={k} dataKey={k} name={seriesName(k)} stackId={stackId} fill={FILL[k]} isAnimationActive={false} />
    ));
  const [hours, setHours] = useState<number>(24);
  const opts = { refetchInterval: POLL };
  const overview = useQuery({ ...trpc.scrape.overview.queryOptions({ hours }), ...opts });
  const byClient = useQuery({ ...trpc.scrape.byClient.queryOptions({ hours }), ...opts });
  const problems = useQuery({ ...trpc.scrape.problems.queryOptions({ hours }), ...opts });
  const byVersion = useQuery({ ...trpc.scrape.byVersion.queryOptions({ hours }), ...opts });
  const o = overview.data;
  return (
    <div className="stack">
      <label className="field">
        <span>{t("window")}</span>
        <select value={hours} onChange={(e) => setHours(Number(e.target.value))}>
          {WINDOWS.map((h) => (
            <option key={h} value={h}>
              {t("hours", { count: h })}
            </option>
          ))}
        </select>
      </label>

      <section className="card stack-sm" aria-labelledby="dash-overview">
        <h2 id="dash-overview">{t("overview")}</h2>
        <QueryState loading={overview.isPending} error={overview.isError} empty={o?.total === 0} />
        {o && o.total > 0 ? (
          <>
            <p>
              {t("overviewLine", {
                total: o.total,
                rate: o.success_rate ?? 0,
                reviews: o.reviews_collected,
                avg: o.avg_duration_ms ?? 0,
              })}
            </p>
            <p className="muted">{t("counts", { ...o.by_status, total: o.total })}</p>
            <p className="muted">{tt("rateNote")}</p>
            <p className="muted">{t("callbacksLine", o.callbacks)}</p>
            <Chart label={t("timelineChart")}>
              <LineChart data={o.timeline}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="hour" fontSize={11} tickFormatter={(h: string) => h.slice(11, 16)} />
                <YAxis allowDecimals={false} fontSize={11} tickFormatter={cf.value} />
                <Tooltip formatter={cf.value} labelFormatter={cf.value} />
                <Legend />
                <Line
                  type="monotone"
                  dot={false}
                  dataKey="succeeded"
                  name={t("jobStatus.succeeded")}
                  stroke={OK}
                  isAnimationActive={false}
                />
                <Line
                  type="monotone"
                  dot={false}
                  dataKey="failed"
                  name={t("jobStatus.failed")}
                  stroke={BAD}
                  isAnimationActive={false}
                />
                <Line
                  type="monotone"
                  dot={false}
                  dataKey="other"
                  name={t("otherStates")}
                  stroke={OTHER}
                  isAnimationActive={false}
                />
              </LineChart>
            </Chart>
            <h3>{t("topClients")}</h3>
            <ul className="list">
              {o.top_clients.map((c) => (
                <li key={c.client_id}>{t("clientJobs", { client: c.client_id, count: c.jobs })}</li>
              ))}
            </ul>
          </>
        ) : null}
      </section>

      <section className="card stack-sm" aria-labelledby="dash-clients">
        <h2 id="dash-clients">{t("byClient")}</h2>
        <QueryState loading={byClient.isPending} error={byClient.isError} empty={byClient.data?.clients.length === 0} />
        {byClient.data && byClient.data.clients.length > 0 ? <p className="muted">{tt("chartAll")}</p> : null}
        {byClient.data && byClient.data.clients.length > 0 ? (
          <Chart label={t("byClient")}>
            <BarChart
              data={byClient.data.clients
                .slice(0, 15)
                .map((c) => ({ client: c.client_id, ...statusStack(c.by_status) }))}
            >
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="client" fontSize={11} />
              <YAxis allowDecimals={false} fontSize={11} tickFormatter={cf.value} />
              <Tooltip formatter={cf.value} labelFormatter={cf.value} />
              <Legend />
              {stackBars("s")}
            </BarChart>
          </Chart>
        ) : null}
      </section>

      <section className="card stack-sm" aria-labelledby="dash-problems">
        <h2 id="dash-problems">{t("problems")}</h2>
        <QueryState
          loading={problems.isPending}
          error={problems.isError}
          empty={problems.data?.by_error_class.length === 0 && problems.data?.failed_callbacks === 0}
        />
        {problems.data && problems.data.by_error_class.length > 0 ? (
          <>
            <Chart label={t("problems")}>
              <BarChart
                data={problems.data.by_error_class.map((p) => ({
                  name: t(`errorClass.${p.error_class}`),
                  jobs: p.jobs,
                }))}
              >
                <XAxis dataKey="name" fontSize={11} />
                <YAxis allowDecimals={false} fontSize={11} tickFormatter={cf.value} />
                <Tooltip formatter={cf.value} labelFormatter={cf.value} />
                <Bar dataKey="jobs" name={t("failedJobs")} fill={BAD} isAnimationActive={false} />
              </BarChart>
            </Chart>
            <ul className="list">
              {problems.data.by_version.map((p) => (
                <li key={`${p.scraper_version}/${p.scraper_variant}/${p.error_class}`}>
                  {t("versionProblem", {
                    version: versionLabel(p.scraper_version, p.scraper_variant, tt("noVersion")),
                    error: t(`errorClass.${p.error_class}`),
                    count: p.jobs,
                  })}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {problems.data ? (
          <p className="muted">{t("failedCallbacks", { count: problems.data.failed_callbacks })}</p>
        ) : null}
      </section>

      <section className="card stack-sm" aria-labelledby="dash-versions">
        <h2 id="dash-versions">{t("byVersion")}</h2>
        <QueryState
          loading={byVersion.isPending}
          error={byVersion.isError}
          empty={byVersion.data?.versions.length === 0}
        />
        {byVersion.data && byVersion.data.versions.length > 0 ? (
          <>
            <Chart label={t("byVersion")}>
              <BarChart
                data={byVersion.data.versions.map((v) => ({
                  name: versionLabel(v.scraper_version, v.scraper_variant, tt("noVersion")),
                  ...statusStack(v.by_status),
                }))}
              >
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="name" fontSize={11} />
                <YAxis allowDecimals={false} fontSize={11} tickFormatter={cf.value} />
                <Tooltip formatter={cf.value} labelFormatter={cf.value} />
                <Legend />
                {stackBars("v")}
              </BarChart>
            </Chart>
            <ScrollRegion label={t("byVersion")}>
              <table aria-label={t("byVersion")}>
                <thead>
                  <tr>
                    <th>{t("version")}</th>
                    <th>{t("traffic")}</th>
                    <th>{t("jobsCount")}</th>
                    <th>{t("successRate")}</th>
                    <th>{t("errors")}</th>
                  </tr>
                </thead>
                <tbody>
                  {byVersion.data.versions.map((v) => (
                    <tr
                      key={v.scraper_version_id ?? "none"}
                      data-version={`${v.scraper_version ?? ""}/${v.scraper_variant ?? ""}`}
                    >
                      <td>{versionLabel(v.scraper_version, v.scraper_variant, tt("noVersion"))}</td>
                      <td>{t("percent", { value: v.traffic_percent ?? 0 })}</td>
                      <td>{f.number(v.total)}</td>
                      <td>{v.success_rate === null ? "" : t("percent", { value: v.success_rate })}</td>
                      <td>
                        {Object.entries(v.errors)
                          .map(([k, n]) => t("errorCount", { error: t(`errorClass.${k}`), count: n }))
                          .join(", ")}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </>
        ) : null}
      </section>
    </div>
  );
}
