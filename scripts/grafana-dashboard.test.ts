import { readFileSync } from "node:fs";
import path from "node:path";
import type { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createBrokerMetrics } from "../broker/metrics";
import { PROJECT_ROOT } from "../src/server/core/project-root";
import { createWebMetrics } from "../src/web/metrics";
import { createWorkerMetrics } from "../src/worker/metrics";

// deploy/grafana/review-mesh.json cannot drift from the code: every metric its PromQL reads exists in
// the registry of the process the query selects (by its job variable), and every metric of the
// product's own (not Node's defaults) has a panel.

interface Panel {
  title: string;
  type: string;
  datasource?: { uid: string };
  targets?: { expr: string }[];
}
interface Dashboard {
  __inputs: { name: string; type: string; pluginId: string }[];
  templating: { list: { name: string; query: { query: string } }[] };
  panels: Panel[];
}

const dashboard = JSON.parse(
  readFileSync(path.join(PROJECT_ROOT, "deploy", "grafana", "review-mesh.json"), "utf8"),
) as Dashboard;
const KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "offset",
  "and",
  "or",
  "unless",
]);

/** The metric names a PromQL expression reads: identifiers outside label matchers, ranges and groupings that are not functions. */
function metricNames(expr: string): string[] {
  // A variable's Grafana query, `label_values(metric, label)`, reads its first argument.
  const labelValues = /^label_values\((\w+),\s*\w+\)$/.exec(expr);
  if (labelValues) return [labelValues[1]!];
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\$\w+/g, " ")
    .replace(/(?<![\w.])\d+(\.\d+)?(e[+-]?\d+)?/gi, " ");
  const names: string[] = [];
  for (const m of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = bare.slice((m.index ?? 0) + m[0].length);
    if (/^\s*\(/.test(after) || KEYWORDS.has(m[0])) continue;
    names.push(m[0]);
  }
  return names;
}

/** The series names a registry exposes (a histogram's _bucket, _sum and _count). */
async function seriesNames(registry: Registry): Promise<Set<string>> {
  const out = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    // prom-client's typings say an enum; the JSON holds the type's name ("histogram").
    const type = metric.type as unknown as string;
    const suffixes =
      type === "histogram" ? ["_bucket", "_sum", "_count"] : type === "summary" ? ["", "_sum", "_count"] : [""];
    for (const s of suffixes) out.add(`${metric.name}${s}`);
  }
  return out;
}

const registries = {
  web: createWebMetrics().registry,
  worker: createWorkerMetrics().registry,
  broker: createBrokerMetrics(() => 0).registry,
};
type Proc = keyof typeof registries;
const processOf = (expr: string): Proc[] =>
  (["web", "worker", "broker"] as const).filter((p) => expr.includes(`$${p}_job`));

describe("the Grafana dashboard", () => {
  it("takes its Prometheus as the DS_PROMETHEUS input on every panel", () => {
    expect(dashboard.__inputs).toContainEqual(
      expect.objectContaining({ name: "DS_PROMETHEUS", type: "datasource", pluginId: "prometheus" }),
    );
    for (const p of dashboard.panels.filter((p) => p.type !== "row"))
      expect(p.datasource?.uid, p.title).toBe("${DS_PROMETHEUS}");
  });

  it("reads only metrics the processes have", async () => {
    const names = {
      web: await seriesNames(registries.web),
      worker: await seriesNames(registries.worker),
      broker: await seriesNames(registries.broker),
    };
    const used: Record<Proc, Set<string>> = { web: new Set(), worker: new Set(), broker: new Set() };
    const queries: { where: string; expr: string; proc?: Proc }[] = [
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: p.title, expr: t.expr }))),
      ...dashboard.templating.list.map((v) => ({
        where: `variable ${v.name}`,
        expr: v.query.query,
        proc: v.name.replace(/_job$/, "") as Proc,
      })),
    ];
    expect(queries.length).toBeGreaterThan(30);
    for (const q of queries) {
      const procs = q.proc ? [q.proc] : processOf(q.expr);
      expect(procs, `${q.where}: ${q.expr} selects one process by its job variable`).toHaveLength(1);
      const proc = procs[0]!;
      const read = metricNames(q.expr);
      expect(read.length, `${q.where}: ${q.expr}`).toBeGreaterThan(0);
      for (const name of read) {
        expect(names[proc].has(name), `${q.where}: ${name} is not a ${proc} metric`).toBe(true);
        used[proc].add(name.replace(/_(bucket|sum|count)$/, ""));
      }
    }
    // Every metric of the product's own has a panel (Node's default metrics are optional).
    for (const proc of ["web", "worker", "broker"] as const) {
      const own = (await registries[proc].getMetricsAsJSON())
        .map((m) => m.name)
        .filter((n) => !/_(process|nodejs)_/.test(n));
      expect(
        own.filter((n) => !used[proc].has(n)),
        `${proc} metrics without a panel`,
      ).toEqual([]);
    }
  });

  it("finds metric names in PromQL", () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{job=~"$web_job"}[5m])))',
      ),
    ).toEqual(["http_request_duration_seconds_bucket"]);
    expect(metricNames('sum(rate(a_total{x="y"}[1m])) / clamp_min(sum(rate(b_total[1m])), 1e-9)')).toEqual([
      "a_total",
      "b_total",
    ]);
    expect(metricNames("label_values(web_db_up, job)")).toEqual(["web_db_up"]);
  });
});
