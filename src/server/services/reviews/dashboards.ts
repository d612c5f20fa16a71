import type { z } from "zod";
import type { Prisma } from "@/server/core/db";
import type { Actor } from "../actor";
import type { ServiceContext } from "../context";
import { ownedBy, type ReviewActor } from "./access";
import { toJobOut } from "./job-output";
import type { ZDashboardInput } from "./dashboards.schema";
import { JOB_STATUSES } from "./schemas";

// The four dashboards of Document 1 over a time window of recent jobs (by creation time). A key
// without the admin scope sees its own jobs only; administrators see every job.

type Input = z.output<typeof ZDashboardInput>;

/**
 * A success rate in percent with one decimal: the one rounding every dashboard uses (as the pipelines'
 * shares), so the same quantity never shows as 86.7 here and 86.67 there. Cancelled, queued and running
 * jobs are not outcomes and are left out of it (the counts beside it list them).
 */
const rate = (ok: number, bad: number) => (ok + bad === 0 ? null : Math.round((ok * 1_000) / (ok + bad)) / 10);

const HOUR_MS = 3_600_000;
const hourKey = (ms: number) => `${new Date(ms).toISOString().slice(0, 13)}:00Z`;

function scope(actor: Actor, input: Input, now: number): Prisma.JobWhereInput {
  return { ...ownedBy(actor), createdAt: { gte: new Date(now - input.hours * HOUR_MS) } };
}

function countsOf(rows: { status: string; _count: { _all: number } }[]) {
  const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<(typeof JOB_STATUSES)[number], number>;
  for (const r of rows) counts[r.status as keyof typeof counts] = r._count._all;
  return counts;
}

/** GET /api/dashboard/overview: jobs by status, success rate, top clients, an hourly timeline. */
export async function dashboardOverview(ctx: ServiceContext<ReviewActor>, input: Input) {
  const { db, actor } = ctx;
  const now = ctx.now().getTime();
  const where = scope(actor, input, now);
  const [byStatus, agg, cb, top, hourly] = await Promise.all([
    db.job.groupBy({ by: ["status"], where, _count: { _all: true } }),
    db.job.aggregate({ where, _avg: { durationMs: true }, _sum: { reviewCount: true }, _count: { _all: true } }),
    db.job.groupBy({ by: ["callbackState"], where, _count: { _all: true } }),
    db.job.groupBy({
      by: ["requesterClientId"],
      where,
      _count: { _all: true },
      orderBy: { _count: { requesterClientId: "desc" } },
      take: 5,
    }),
    db.job.findMany({ where, select: { createdAt: true, status: true }, orderBy: { createdAt: "desc" }, take: 20_000 }),
  ]);
  const counts = countsOf(byStatus);
  // Every hour of the window, empty ones included, so the chart is a line over time (a few busy hours
  // alone would be drawn side by side as if they were one instant).
  const buckets = new Map<string, { succeeded: number; failed: number; other: number }>();
  const last = Math.floor(now / HOUR_MS) * HOUR_MS;
  for (let h = last - input.hours * HOUR_MS; h <= last; h += HOUR_MS) {
    buckets.set(hourKey(h), { succeeded: 0, failed: 0, other: 0 });
  }
  for (const j of hourly) {
    const b = buckets.get(hourKey(j.createdAt.getTime()));
    if (!b) continue;
    if (j.status === "succeeded") b.succeeded += 1;
    else if (j.status === "failed") b.failed += 1;
    else b.other += 1;
  }
  const cbCount = (s: string) => cb.find((c) => c.callbackState === s)?._count._all ?? 0;
  return {
    hours: input.hours,
    total: agg._count._all,
    by_status: counts,
    success_rate: rate(counts.succeeded, counts.failed),
    avg_duration_ms: agg._avg.durationMs === null ? null : Math.round(agg._avg.durationMs),
    reviews_collected: agg._sum.reviewCount ?? 0,
    callbacks: { pending: cbCount("pending"), delivered: cbCount("delivered"), failed: cbCount("failed") },
    top_clients: top.map((t) => ({ client_id: t.requesterClientId, jobs: t._count._all })),
    timeline: [...buckets.entries()].map(([hour, b]) => ({ hour, ...b })),
  };
}

/** GET /api/dashboard/by-client: per requester client (the 100 busiest). */
export async function dashboardByClient(ctx: ServiceContext<ReviewActor>, input: Input) {
  const { db, actor } = ctx;
  const rows = await db.job.groupBy({
    by: ["requesterClientId", "status"],
    where: scope(actor, input, ctx.now().getTime()),
    _count: { _all: true },
    _sum: { reviewCount: true },
  });
  const clients = new Map<string, { rows: typeof rows; reviews: number }>();
  for (const r of rows) {
    const c = clients.get(r.requesterClientId) ?? { rows: [], reviews: 0 };
    c.rows.push(r);
    c.reviews += r._sum.reviewCount ?? 0;
    clients.set(r.requesterClientId, c);
  }
  const out = [...clients.entries()].map(([client_id, c]) => {
    const by_status = countsOf(c.rows);
    const total = Object.values(by_status).reduce((a, b) => a + b, 0);
    return {
      client_id,
      total,
      by_status,
      success_rate: rate(by_status.succeeded, by_status.failed),
      reviews: c.reviews,
    };
  });
  out.sort((a, b) => b.total - a.total || a.client_id.localeCompare(b.client_id));
  return { hours: input.hours, clients: out.slice(0, 100) };
}

/** GET /api/dashboard/problems: failures by error class and by version, failed callbacks, the 50 latest problem jobs. */
export async function dashboardProblems(ctx: ServiceContext<ReviewActor>, input: Input) {
  const { db, actor } = ctx;
  const where = scope(actor, input, ctx.now().getTime());
  const failed = { ...where, status: "failed" as const };
  const [byClass, byVersion, failedCallbacks, recent] = await Promise.all([
    db.job.groupBy({ by: ["errorClass"], where: failed, _count: { _all: true } }),
    db.job.groupBy({ by: ["scraperVersion", "scraperVariant", "errorClass"], where: failed, _count: { _all: true } }),
    db.job.count({ where: { ...where, callbackState: "failed" } }),
    db.job.findMany({
      where: { ...where, OR: [{ status: "failed" }, { callbackState: "failed" }] },
      orderBy: { createdAt: "desc" },
      take: 50,
    }),
  ]);
  return {
    hours: input.hours,
    by_error_class: byClass
      .filter((r) => r.errorClass)
      .map((r) => ({ error_class: r.errorClass!, jobs: r._count._all }))
      .sort((a, b) => b.jobs - a.jobs),
    by_version: byVersion
      .filter((r) => r.errorClass)
      .map((r) => ({
        scraper_version: r.scraperVersion,
        scraper_variant: r.scraperVariant,
        error_class: r.errorClass!,
        jobs: r._count._all,
      }))
      .sort((a, b) => b.jobs - a.jobs),
    failed_callbacks: failedCallbacks,
    recent: recent.map(toJobOut),
  };
}

/** GET /api/dashboard/by-version: results per scraper version and variant (A/B comparison, drift). */
export async function dashboardByVersion(ctx: ServiceContext<ReviewActor>, input: Input) {
  const { db, actor } = ctx;
  const where = scope(actor, input, ctx.now().getTime());
  const [rows, errs, avg, versions] = await Promise.all([
    db.job.groupBy({ by: ["scraperVersionId", "status"], where, _count: { _all: true }, _sum: { reviewCount: true } }),
    db.job.groupBy({
      by: ["scraperVersionId", "errorClass"],
      where: { ...where, status: "failed" },
      _count: { _all: true },
    }),
    db.job.groupBy({
      by: ["scraperVersionId"],
      where: { ...where, durationMs: { not: null } },
      _avg: { durationMs: true },
    }),
    db.scraperVersion.findMany(),
  ]);
  const ids = [...new Set(rows.map((r) => r.scraperVersionId))];
  const out = ids.map((id) => {
    const v = versions.find((x) => x.id === id);
    const mine = rows.filter((r) => r.scraperVersionId === id);
    const by_status = countsOf(mine);
    const a = avg.find((x) => x.scraperVersionId === id)?._avg.durationMs ?? null;
    return {
      scraper_version_id: id,
      scraper_version: v?.version ?? null,
      scraper_variant: v?.variant ?? null,
      implementation: v?.implementation ?? null,
      traffic_percent: v?.trafficPercent ?? null,
      deprecated: v?.deprecated ?? null,
      total: Object.values(by_status).reduce((x, y) => x + y, 0),
      by_status,
      success_rate: rate(by_status.succeeded, by_status.failed),
      avg_duration_ms: a === null ? null : Math.round(a),
      reviews: mine.reduce((acc, r) => acc + (r._sum.reviewCount ?? 0), 0),
      errors: Object.fromEntries(
        errs
          .filter((e) => e.scraperVersionId === id && e.errorClass)
          .map((e) => [e.errorClass as string, e._count._all]),
      ),
    };
  });
  out.sort(
    (a, b) =>
      (a.scraper_version ?? "").localeCompare(b.scraper_version ?? "") ||
      (a.scraper_variant ?? "").localeCompare(b.scraper_variant ?? ""),
  );
  return { hours: input.hours, versions: out };
}
