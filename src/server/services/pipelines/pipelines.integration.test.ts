import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/server/core/errors";
import { bossExecutionQueue, type ExecutionQueue } from "@/server/pipelines/queue";
import { startBoss } from "@/server/queue/boss";
import { testSettings } from "@/test/review-fixtures";
import { syncRegistry } from "@/server/pipelines/registry";
import { insertGeneratedReviews } from "@/server/pipelines/review-analytics/demo-data";
import type { PipelineDefinition } from "@/server/pipelines/types";
import { testDb, uid } from "@/test/helpers";
import { makeUser, actorOf } from "@/test/mesh-fixtures";
import { startPipelineWorker } from "@/worker/pipelines";
import { logger } from "@/server/core/logger";
import { executePipeline, getExecution, getSynthesis, getWidgetData, listExecutions, rerunExecution } from "./executions";
import { getDashboard, getPipeline, listPipelines } from "./pipelines";
import { failStaleExecutions } from "./fail-stale";
import { runExecution } from "./run-execution";

const db = testDb();
afterAll(() => db.$disconnect());

/** A queue that only records ids; the test runs the execution itself. */
function recordingQueue(): ExecutionQueue & { ids: string[] } {
  const ids: string[] = [];
  return { ids, enqueueExecution: (id) => (ids.push(id), Promise.resolve()) };
}

describe("review-analytics executions", () => {
  it("queues a run, runs every stage and serves metrics, widgets and the v2 synthesis", async () => {
    const user = await makeUser(db);
    const actor = actorOf(user);
    const place = uid("place");
    await insertGeneratedReviews(db, place, { count: 250, seed: 3, duplicateShare: 0.05 });
    const queue = recordingQueue();

    const queued = await executePipeline({ db, queue }, actor, { pipeline_id: "review-analytics", input: { place_key: place, from: "2026-01-01", to: "2026-12-31" } });
    expect(queued).toMatchObject({ status: "queued", pipeline_id: "review-analytics", attempt: 1, input: { place_key: place, max_reviews: 100_000 } });
    expect(Object.values(queued.stage_metrics).map((m) => m.status)).toEqual(["pending", "pending", "pending", "pending", "pending"]);
    expect(queue.ids).toEqual([queued.id]);

    expect(await runExecution({ db }, queued.id)).toBe("succeeded");
    expect(await runExecution({ db }, queued.id)).toBe("skipped"); // a second delivery does nothing

    const detail = await getExecution(db, actor, { pipeline_id: "review-analytics", execution_id: queued.id });
    expect(detail.status).toBe("succeeded");
    expect(detail.synthesis_format).toBe("v2");
    expect(typeof detail.total_duration_ms).toBe("number");
    expect(Object.keys(detail.stage_metrics)).toEqual(["normalize", "classify", "route", "aggregate", "synthesize"]);
    expect(detail.stage_metrics.normalize).toMatchObject({ status: "succeeded", items_in: 250 });
    expect(detail.stage_metrics.normalize?.warnings[0]).toMatch(/duplicate reviews dropped/);
    expect(detail.stage_metrics.classify?.items_in).toBe(detail.stage_metrics.normalize?.items_out);
    expect(detail.stage_metrics.synthesize).toMatchObject({ status: "succeeded", items_in: 1, items_out: 1 });

    const kinds = new Set<string>();
    for (const widget of getDashboard(actor, { pipeline_id: "review-analytics" }).widgets) {
      const data = await getWidgetData(db, actor, { pipeline_id: "review-analytics", widget_id: widget.id, execution_id: queued.id });
      expect(data.data, widget.id).not.toBeNull();
      expect(data.data?.kind).toBe(widget.kind);
      kinds.add(widget.kind);
    }
    expect([...kinds].sort()).toEqual(["BarChart", "DataTable", "Heatmap", "LineChart", "PieChart", "StatCard"]);
    const total = await getWidgetData(db, actor, { pipeline_id: "review-analytics", widget_id: "total_reviews", execution_id: queued.id });
    expect(total.data).toMatchObject({ kind: "StatCard", value: detail.stage_metrics.normalize?.items_out });

    const synthesis = await getSynthesis(db, actor, { pipeline_id: "review-analytics", execution_id: queued.id });
    expect(synthesis.format).toBe("v2");
    expect(synthesis.report).toMatchObject({ report_version: "2.0", writer: "deterministic" });
    expect(Object.keys(synthesis.report)).toEqual(expect.arrayContaining(["executive_summary", "risk_scorecard", "critical_issues", "action_matrix", "tracking_kpis", "strengths_to_protect"]));

    const history = await listExecutions(db, actor, { pipeline_id: "review-analytics", page: 1, pageSize: 100 });
    expect(history.items.some((e) => e.id === queued.id)).toBe(true);
    const slowest = await listExecutions(db, actor, { pipeline_id: "review-analytics", status: "succeeded", sort: "slowest", pageSize: 100 });
    const durations = slowest.items.map((e) => e.total_duration_ms ?? -1);
    expect(durations.length).toBeGreaterThan(0);
    expect(durations).toEqual([...durations].sort((x, y) => y - x));
    const oldest = await listExecutions(db, actor, { pipeline_id: "review-analytics", sort: "oldest", pageSize: 100 });
    const queuedTimes = oldest.items.map((e) => e.queued_at.getTime());
    expect(queuedTimes).toEqual([...queuedTimes].sort((x, y) => x - y));
    const list = await listPipelines(db, actor);
    expect(list.items.map((p) => p.id)).toContain("review-analytics");
    const details = await getPipeline(db, actor, { pipeline_id: "review-analytics" });
    expect(details.input_schema).toMatchObject({ type: "object", properties: { place_key: { type: "string" }, job_ids: { type: "array" } } });
  });

  it("reads the reviews of a set of jobs through job_reviews", async () => {
    const actor = actorOf(await makeUser(db));
    const place = uid("jobs");
    await insertGeneratedReviews(db, place, { count: 30, seed: 11 });
    const reviews = await db.review.findMany({ where: { placeKey: place }, select: { id: true }, take: 12 });
    // A finished collection job that stored 12 of the place's reviews (rows as the collection engine writes them).
    const job = await db.job.create({ data: { requesterClientId: uid("client"), status: "succeeded", reviewCount: 12 }, select: { id: true } });
    await db.jobReview.createMany({ data: reviews.map((r) => ({ jobId: job.id, reviewId: r.id })) });
    const queue = recordingQueue();
    const run = await executePipeline({ db, queue }, actor, { pipeline_id: "review-analytics", input: { job_ids: [job.id] } });
    expect(await runExecution({ db }, run.id)).toBe("succeeded");
    const detail = await getExecution(db, actor, { pipeline_id: "review-analytics", execution_id: run.id });
    expect(detail.stage_metrics.normalize?.items_in).toBe(12);
  });

  it("rejects run requests that fail the pipeline's own schema, and unknown pipelines", async () => {
    const actor = actorOf(await makeUser(db));
    const queue = recordingQueue();
    const bad = await executePipeline({ db, queue }, actor, { pipeline_id: "review-analytics", input: { from: "2026-05-01", to: "2026-01-01" } }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(AppError);
    expect((bad as AppError).code).toBe("BAD_REQUEST");
    expect((bad as AppError).details).toMatchObject({ issues: expect.arrayContaining([{ path: "place_key", message: "place_key_or_job_ids_required" }]) });
    await expect(executePipeline({ db, queue }, actor, { pipeline_id: "nope", input: {} })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getWidgetData(db, actor, { pipeline_id: "review-analytics", widget_id: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND", message: "widget_not_found" });
    expect(queue.ids).toEqual([]);
  });

  it("API keys need jobs:read to read and jobs:write to execute", async () => {
    const reader = { kind: "apiKey" as const, apiKeyId: "k", scopes: ["jobs:read"] };
    await expect(listPipelines(db, reader)).resolves.toBeTruthy();
    await expect(executePipeline({ db, queue: recordingQueue() }, reader, { pipeline_id: "review-analytics", input: { place_key: "x" } })).rejects.toMatchObject({ code: "FORBIDDEN", details: { required: "jobs:write" } });
    await expect(listPipelines(db, { kind: "apiKey", apiKeyId: "k", scopes: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("engine failure path in the database", () => {
  const failing: PipelineDefinition = {
    id: "failing-test",
    name: "Failing",
    description: "fails in its second stage",
    version: "0.0.1",
    inputSchema: z.object({ n: z.number() }) as z.ZodType<unknown>,
    stages: [
      { id: "first", name: "First", count: () => 1, run: () => ({ output: [1, 2, 3], itemsOut: 3 }) },
      { id: "second", name: "Second", count: (l: number[]) => l.length, run: () => { throw new Error("second stage broke"); } },
      { id: "third", name: "Third", count: () => 0, run: () => ({ output: null, itemsOut: 0 }) },
    ] as unknown as PipelineDefinition["stages"],
    dashboard: [],
    prepare: () => Promise.resolve({ first: null, ctx: null }),
    finish: () => ({ result: {}, synthesis: null }),
    widgetData: () => null,
  };

  it("records the stage and error, keeps the metrics of the stages that ran", async () => {
    await syncRegistry(db, [failing]);
    const row = await db.pipelineExecution.create({ data: { pipelineId: "failing-test", pipelineVersion: "0.0.1", input: { n: 1 } } });
    expect(await runExecution({ db, registry: [failing] }, row.id)).toBe("failed");
    const stored = await db.pipelineExecution.findUniqueOrThrow({ where: { id: row.id } });
    expect(stored).toMatchObject({ status: "failed", failedStage: "second", error: "second stage broke", currentStage: null });
    expect(stored.totalDurationMs).not.toBeNull();
    const metrics = stored.stageMetrics as Record<string, { status: string; items_out: number | null; errors: string[] }>;
    expect(metrics.first).toMatchObject({ status: "succeeded", items_out: 3 });
    expect(metrics.second).toMatchObject({ status: "failed", errors: ["second stage broke"] });
    expect(metrics.third?.status).toBe("skipped");
  });

  it("a failed review-analytics execution runs again as a new attempt; only failed ones can", async () => {
    const actor = actorOf(await makeUser(db));
    const place = uid("rerun");
    await insertGeneratedReviews(db, place, { count: 20, seed: 5 });
    await syncRegistry(db);
    // An execution that failed (e.g. the worker lost its database mid-run).
    const failed = await db.pipelineExecution.create({
      data: { pipelineId: "review-analytics", pipelineVersion: "1.0.0", input: { place_key: place, max_reviews: 100 }, status: "failed", failedStage: "classify", error: "connection lost" },
    });
    const queue = recordingQueue();
    const again = await rerunExecution({ db, queue }, actor, { pipeline_id: "review-analytics", execution_id: failed.id });
    expect(again).toMatchObject({ status: "queued", attempt: 2, retry_of_id: failed.id, input: { place_key: place } });
    expect(await runExecution({ db }, again.id)).toBe("succeeded");
    await expect(rerunExecution({ db, queue }, actor, { pipeline_id: "review-analytics", execution_id: again.id })).rejects.toMatchObject({ code: "CONFLICT" });
    // A stored input that no longer fits the schema fails in prepare, with the reason.
    const broken = await db.pipelineExecution.create({ data: { pipelineId: "review-analytics", pipelineVersion: "1.0.0", input: { max_reviews: 5 } } });
    expect(await runExecution({ db }, broken.id)).toBe("failed");
    expect(await db.pipelineExecution.findUniqueOrThrow({ where: { id: broken.id } })).toMatchObject({ failedStage: "prepare" });
  });
});

describe("lost workers", () => {
  it("marks executions running longer than the stale time failed, and leaves recent ones", async () => {
    await syncRegistry(db);
    const now = new Date();
    const old = await db.pipelineExecution.create({ data: { pipelineId: "review-analytics", pipelineVersion: "1.0.0", input: { place_key: "x" }, status: "running", startedAt: new Date(now.getTime() - 3_600_000) } });
    const fresh = await db.pipelineExecution.create({ data: { pipelineId: "review-analytics", pipelineVersion: "1.0.0", input: { place_key: "x" }, status: "running", startedAt: now } });
    expect(await failStaleExecutions(db, 30 * 60_000, now)).toBeGreaterThanOrEqual(1);
    expect(await db.pipelineExecution.findUniqueOrThrow({ where: { id: old.id } })).toMatchObject({ status: "failed", failedStage: "worker", error: "worker_lost" });
    expect((await db.pipelineExecution.findUniqueOrThrow({ where: { id: fresh.id } })).status).toBe("running");
    await db.pipelineExecution.delete({ where: { id: fresh.id } });
  });
});

describe("worker on pg-boss", () => {
  it("takes a queued execution from the queue and completes it", async () => {
    const url = process.env.DATABASE_URL as string;
    // One instance, as in the worker: the sender and the consumer share it.
    const boss = await startBoss({ url, settings: testSettings(), supervise: false });
    const worker = await startPipelineWorker({ boss, db, log: logger(), concurrency: 1, llm: null });
    const queue = bossExecutionQueue(() => Promise.resolve(boss));
    try {
      const actor = actorOf(await makeUser(db));
      const place = uid("boss");
      await insertGeneratedReviews(db, place, { count: 40, seed: 9 });
      const run = await executePipeline({ db, queue }, actor, { pipeline_id: "review-analytics", input: { place_key: place } });
      const deadline = Date.now() + 30_000;
      let status = run.status as string;
      while (Date.now() < deadline && (status === "queued" || status === "running")) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await db.pipelineExecution.findUniqueOrThrow({ where: { id: run.id }, select: { status: true } })).status;
      }
      expect(status).toBe("succeeded");
    } finally {
      worker.stop();
      await boss.stop({ graceful: false, wait: true });
    }
  });
});

