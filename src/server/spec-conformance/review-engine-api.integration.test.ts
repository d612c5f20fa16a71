// Document 1 (spec/review-engine-api.md), checked with the spec's own literal values and a fixture of
// jobs with known outcomes: each test names the sentence it checks. Real PostgreSQL.
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/services/actor";
import * as dash from "@/server/services/reviews/dashboards";
import { ZDashboardInput } from "@/server/services/reviews/dashboards.schema";
import { activeVersions, invalidateRegistry } from "@/server/services/reviews/registry-cache";
import { testDb, uid } from "@/test/helpers";
import { makeKey } from "@/test/review-fixtures";
import { serviceContext } from "@/server/services/context";

const db = testDb();
afterAll(() => db.$disconnect());

describe("Document 1: dashboards over a fixture of jobs with known outcomes", () => {
  it('"jobs by status, success rates, top clients", "aggregates per client", "problem jobs", "aggregates per scraper version"', async () => {
    // The fixture belongs to a fresh key: its dashboards see its jobs only, whatever other tests write.
    const { id: apiKeyId } = await makeKey(db, ["jobs:read", "jobs:write"]);
    const actor: Actor = { kind: "apiKey", apiKeyId, scopes: ["jobs:read", "jobs:write"] };
    const va = await db.scraperVersion.create({
      data: { version: uid("dash"), variant: "default", implementation: "noop", trafficPercent: 0 },
    });
    const vb = await db.scraperVersion.create({
      data: { version: va.version, variant: "b", implementation: "noop", trafficPercent: 0 },
    });
    // All inside one hour of the window (so the timeline has one bucket), and one job older than the 24 hours.
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    const at = new Date(hour.getTime() + 5 * 60_000);
    type Row = [
      client: string,
      v: typeof va,
      status: "queued" | "succeeded" | "failed",
      reviews: number,
      ms: number | null,
      error: "blocked" | "timeout" | null,
      cb: "none" | "pending" | "delivered" | "failed",
      created?: Date,
    ];
    const rows: Row[] = [
      ["c1", va, "succeeded", 10, 1_000, null, "delivered"],
      ["c1", va, "succeeded", 20, 3_000, null, "none"],
      ["c1", va, "failed", 0, 500, "blocked", "failed"],
      ["c2", vb, "failed", 0, 1_500, "timeout", "pending"],
      ["c2", vb, "succeeded", 5, 2_000, null, "none"],
      ["c3", vb, "queued", 0, null, null, "none"],
      ["c1", va, "succeeded", 100, 9_000, null, "delivered", new Date(Date.now() - 25 * 3_600_000)],
    ];
    const ids: string[] = [];
    for (const [client, v, status, reviews, ms, error, cb, created] of rows) {
      const job = await db.job.create({
        data: {
          apiKeyId,
          requesterClientId: client,
          scraperVersionId: v.id,
          scraperVersion: v.version,
          scraperVariant: v.variant,
          status,
          reviewCount: reviews,
          durationMs: ms,
          errorClass: error,
          callbackState: cb,
          createdAt: created ?? at,
        },
      });
      ids.push(job.id);
    }
    const input = ZDashboardInput.parse({});
    expect(input.hours).toBe(24);
    const zero = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };

    const overview = await dash.dashboardOverview(serviceContext(actor, { db }), input);
    // The timeline is every hour of the window, empty hours included (a line over time, not dots at one
    // instant): 24 hours back from the current hour, 25 points.
    expect(overview.timeline).toHaveLength(25);
    expect(overview.timeline.filter((b) => b.succeeded + b.failed + b.other > 0)).toEqual([
      { hour: `${hour.toISOString().slice(0, 13)}:00Z`, succeeded: 3, failed: 2, other: 1 },
    ]);
    expect(overview.timeline.at(-1)?.hour).toBe(`${new Date().toISOString().slice(0, 13)}:00Z`);
    expect({ ...overview, timeline: [] }).toEqual({
      hours: 24,
      total: 6,
      by_status: { ...zero, queued: 1, succeeded: 3, failed: 2 },
      success_rate: 60,
      avg_duration_ms: 1_600,
      reviews_collected: 35,
      callbacks: { pending: 1, delivered: 1, failed: 1 },
      top_clients: [
        { client_id: "c1", jobs: 3 },
        { client_id: "c2", jobs: 2 },
        { client_id: "c3", jobs: 1 },
      ],
      timeline: [],
    });

    expect(await dash.dashboardByClient(serviceContext(actor, { db }), input)).toEqual({
      hours: 24,
      clients: [
        {
          client_id: "c1",
          total: 3,
          by_status: { ...zero, succeeded: 2, failed: 1 },
          success_rate: 66.7,
          reviews: 30,
        },
        { client_id: "c2", total: 2, by_status: { ...zero, succeeded: 1, failed: 1 }, success_rate: 50, reviews: 5 },
        { client_id: "c3", total: 1, by_status: { ...zero, queued: 1 }, success_rate: null, reviews: 0 },
      ],
    });

    const problems = await dash.dashboardProblems(serviceContext(actor, { db }), input);
    expect(problems.failed_callbacks).toBe(1);
    expect(new Set(problems.by_error_class.map((r) => `${r.error_class}:${r.jobs}`))).toEqual(
      new Set(["blocked:1", "timeout:1"]),
    );
    expect(new Set(problems.by_version.map((r) => `${r.scraper_variant}:${r.error_class}:${r.jobs}`))).toEqual(
      new Set(["default:blocked:1", "b:timeout:1"]),
    );
    // Problem jobs: failed, or whose callback failed (job 3 is both), newest first.
    expect(new Set(problems.recent.map((j) => j.id))).toEqual(new Set([ids[2], ids[3]]));

    const byVersion = await dash.dashboardByVersion(serviceContext(actor, { db }), input);
    expect(byVersion.versions).toEqual([
      {
        scraper_version_id: vb.id,
        scraper_version: va.version,
        scraper_variant: "b",
        implementation: "noop",
        traffic_percent: 0,
        deprecated: false,
        total: 3,
        by_status: { ...zero, queued: 1, succeeded: 1, failed: 1 },
        success_rate: 50,
        avg_duration_ms: 1_750,
        reviews: 5,
        errors: { timeout: 1 },
      },
      {
        scraper_version_id: va.id,
        scraper_version: va.version,
        scraper_variant: "default",
        implementation: "noop",
        traffic_percent: 0,
        deprecated: false,
        total: 3,
        by_status: { ...zero, succeeded: 2, failed: 1 },
        success_rate: 66.7,
        avg_duration_ms: 1_500,
        reviews: 30,
        errors: { blocked: 1 },
      },
    ]);
  });
});

describe("Document 1: limits and authentication", () => {
  it('"Scraper registry cache time-to-live: 60 seconds"', async () => {
    invalidateRegistry();
    const platform = uid("ttl-platform");
    const t0 = 1_000_000;
    expect(await activeVersions(db, platform, t0)).toEqual([]);
    await db.scraperVersion.create({ data: { platform, version: "v1", implementation: "noop", trafficPercent: 100 } });
    // Within 60 s the cached (empty) registry answers; at 60 s it is read again.
    expect(await activeVersions(db, platform, t0 + 59_999)).toEqual([]);
    expect((await activeVersions(db, platform, t0 + 60_000)).map((v) => v.version)).toEqual(["v1"]);
    invalidateRegistry();
  });

  it('"A key is stored only as its SHA-256 hash, never in plain text"; "The scopes are jobs:read, jobs:write and admin"', async () => {
    const { id, key } = await makeKey(db, ["jobs:read", "jobs:write", "admin"]);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id } });
    expect(row.keyHash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(key);
    expect([...row.scopes].sort()).toEqual(["admin", "jobs_read", "jobs_write"]);
  });
});
