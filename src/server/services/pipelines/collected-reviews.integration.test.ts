import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoPlatform, type DemoPlatform } from "@/demo-platform/server";
import { createLogger } from "@/server/core/logger";
import type { Aggregates } from "@/server/pipelines/review-analytics/aggregates";
import type { Actor } from "@/server/services/actor";
import { createJob } from "@/server/services/reviews/create-jobs";
import { ZCreateJobInput } from "@/server/services/reviews/create-jobs.schema";
import { testDb } from "@/test/helpers";
import { ctxOf, systemCtx } from "@/test/pipeline-fixtures";
import { makeContext, makeKey, makeVersion, testSettings, waitFor } from "@/test/review-fixtures";
import { startQueueWorkers, type QueueWorkers } from "@/worker/queue-workers";
import { startPipelineWorker } from "@/worker/pipelines";
import type { Slots } from "@/worker/slots";
import { executePipeline } from "./execute-pipeline";
import { getSynthesis } from "./execution-views";
import { getExecution } from "./executions";
import { withActor } from "@/server/services/context";

/**
 * The whole path as the product runs it: a collection job scrapes the demo reviews platform over HTTP
 * in a worker, its reviews are stored, and the review-analytics pipeline runs over exactly those
 * reviews in the same worker, from the same work queue.
 */
const db = testDb();
const settings = testSettings();
let platform: DemoPlatform;
let platformUrl: string;
const deps = makeContext(db, settings);
let pipelines: Slots;

let workers: QueueWorkers;
beforeAll(async () => {
  platform = createDemoPlatform({ places: 6 });
  platformUrl = await platform.listen(0);
  // Scrape jobs and pipeline executions on the product's own queue, as in the worker.
  const log = createLogger("test-worker", "warn");
  workers = startQueueWorkers(deps, { scrape: 2, callbacks: 1 }, log);
  pipelines = startPipelineWorker(systemCtx(db, settings), { log, concurrency: 1, llm: null });
});
afterAll(async () => {
  await pipelines.stop(5_000);
  await workers.close({ graceMs: 5_000 });
  await platform.close();
  await db.$disconnect();
});

describe("review-analytics over reviews collected from the demo platform", () => {
  it("analyses exactly the reviews a real job collected, in their languages, with real quotes", async () => {
    // A Madrid or Barcelona place: Spanish first, English and German too.
    const place =
      platform.dataset.places.find((p) => !p.special && /Madrid|Barcelona/.test(p.city) && p.reviewCount >= 60) ??
      platform.dataset.places[0]!;
    const source = platform.dataset.reviews(place.id);
    const key = await makeKey(db, ["jobs:read", "jobs:write"]);
    const actor: Actor = { kind: "apiKey", apiKeyId: key.id, scopes: ["jobs:read", "jobs:write"] };
    const version = await makeVersion(db, "http-json", { platformUrl });
    const limit = Math.min(150, source.length);
    const { value: job } = await createJob(
      withActor(deps, actor),
      ZCreateJobInput.parse({
        requester_client_id: "analytics",
        platform_id: place.id,
        scraper_version: version.version,
        review_limit: limit,
      }),
    );
    const done = await waitFor(
      async () => {
        const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
        return row.status === "succeeded" || row.status === "failed" ? row : undefined;
      },
      60_000,
      "the collection job",
    );
    expect(done).toMatchObject({ status: "succeeded", reviewCount: limit });

    const run = await executePipeline(
      ctxOf(db, actor, settings),
      { pipeline_id: "review-analytics", input: { job_ids: [job.id] } },
      { maxActivePerPrincipal: 2 },
    );
    const finished = await waitFor(
      async () => {
        const e = await getExecution(ctxOf(db, actor), { pipeline_id: "review-analytics", execution_id: run.id });
        return e.status === "succeeded" || e.status === "failed" ? e : undefined;
      },
      60_000,
      "the execution",
    );
    expect(finished.status, finished.error ?? "").toBe("succeeded");
    expect(finished.stage_metrics.normalize).toMatchObject({ status: "succeeded", items_in: limit });

    // The aggregates describe the collected rows, not a generated set.
    const stored = await db.review.findMany({
      where: { jobs: { some: { jobId: job.id } } },
      select: { id: true, rating: true, language: true, text: true },
    });
    expect(stored).toHaveLength(limit);
    const row = await db.pipelineExecution.findUniqueOrThrow({ where: { id: run.id }, select: { result: true } });
    const result = row.result as unknown as Aggregates;
    expect(result.totals.reviews_in).toBe(limit);
    const ratings = new Map<number, number>();
    for (const r of stored) if (r.rating !== null) ratings.set(r.rating, (ratings.get(r.rating) ?? 0) + 1);
    const kept = result.totals.reviews;
    expect(kept).toBeLessThanOrEqual(limit);
    expect(result.rating_distribution.reduce((n, b) => n + b.count, 0)).toBe(kept);
    if (kept === limit) for (const b of result.rating_distribution) expect(b.count).toBe(ratings.get(b.rating) ?? 0);
    const languages = new Set(result.languages.filter((l) => l.count > 0).map((l) => l.language));
    expect(languages.has("es")).toBe(true);
    expect(languages.size).toBeGreaterThanOrEqual(2);

    // Every quote is an excerpt of a review the job stored.
    const texts = new Map(stored.map((r) => [r.id, r.text ?? ""]));
    const quotes = Object.values(result.quotes).flatMap((q) => [...q.positive, ...q.negative]);
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) expect(texts.get(q.review_id) ?? "", q.text).toContain(q.text.replace(/…$/, "").trim());

    const synthesis = await getSynthesis(ctxOf(db, actor), { pipeline_id: "review-analytics", execution_id: run.id });
    expect(synthesis.format).toBe("v2");
    expect(JSON.stringify(synthesis.report?.executive_summary)).toContain(String(kept));
  }, 120_000);
});
