import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/server/core/errors";
import { syncRegistry } from "@/server/pipelines/registry";
import { storeGeneratedReviews } from "@/server/pipelines/review-analytics/demo-data";
import type { PipelineDefinition, StageMetric } from "@/server/pipelines/types";
import { testDb, uid } from "@/test/helpers";
import { makeUser, actorOf } from "@/test/mesh-fixtures";
import { collectedJob, ctxOf, reviewsOf, systemCtx, testQueue } from "@/test/pipeline-fixtures";
import { ZListExecutionsInput } from "./schemas";
import { executePipeline, rerunExecution } from "./execute-pipeline";
import { getSynthesis, getWidgetData } from "./execution-views";
import { getExecution, listExecutions } from "./executions";
import { getDashboard, getPipeline, listPipelines } from "./pipelines";
import { runClaimedExecution, runExecution } from "./run-execution";
import { renewExecutionLease, takeExecutions } from "./take-executions";

const db = testDb();
afterAll(() => db.$disconnect());

/** A limit no test here reaches. */
const LIMITS = { maxActivePerPrincipal: 1_000 };

/** Generated reviews of a new place, collected by an administrator's job (readable by administrators). */
async function adminPlace(tag: string, count: number, seed: number, duplicateShare = 0) {
  const place = uid(tag);
  const job = await db.job.create({
    data: { requesterClientId: uid("client"), placeId: place, status: "succeeded" },
    select: { id: true },
  });
  await storeGeneratedReviews(db, job.id, place, { count, seed, duplicateShare });
  return place;
}

describe("review-analytics executions", () => {
  it("queues a run, runs every stage and serves metrics, widgets and the v2 synthesis", async () => {
    const user = await makeUser(db, { admin: true });
    const actor = actorOf(user);
    const place = await adminPlace("place", 250, 3, 0.05);
    const queue = testQueue(db);

    const queued = await executePipeline(
      ctxOf(db, actor, queue.review),
      {
        pipeline_id: "review-analytics",
        input: { place_key: place, from: "2026-01-01", to: "2026-12-31" },
      },
      LIMITS,
    );
    expect(queued).toMatchObject({
      status: "queued",
      pipeline_id: "review-analytics",
      attempt: 1,
      input: { place_key: place, max_reviews: 100_000 },
    });
    expect(Object.values(queued.stage_metrics).map((m: StageMetric) => m.status)).toEqual([
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
    ]);
    expect(await queue.ids()).toEqual([queued.id]);

    expect(await runExecution(systemCtx(db), { executionId: queued.id })).toBe("succeeded");
    expect(await runExecution(systemCtx(db), { executionId: queued.id })).toBe("skipped"); // a second delivery does nothing

    const detail = await getExecution(ctxOf(db, actor), { pipeline_id: "review-analytics", execution_id: queued.id });
    expect(detail.status).toBe("succeeded");
    expect(detail.synthesis_format).toBe("v2");
    expect(detail.review_count).toBe(250);
    expect(detail.places).toEqual([{ place_key: place, origin: "https://demo.invalid", name: null, reviews: 250 }]);
    expect(typeof detail.total_duration_ms).toBe("number");
    expect(Object.keys(detail.stage_metrics)).toEqual(["normalize", "classify", "route", "aggregate", "synthesize"]);
    expect(detail.stage_metrics.normalize).toMatchObject({ status: "succeeded", items_in: 250 });
    expect(detail.stage_metrics.normalize?.warnings[0]).toMatch(/duplicate reviews dropped/);
    expect(detail.stage_metrics.classify?.items_in).toBe(detail.stage_metrics.normalize?.items_out);
    expect(detail.stage_metrics.synthesize).toMatchObject({ status: "succeeded", items_in: 1, items_out: 1 });

    const kinds = new Set<string>();
    for (const widget of getDashboard(ctxOf(db, actor), { pipeline_id: "review-analytics" }).widgets) {
      const data = await getWidgetData(ctxOf(db, actor), {
        pipeline_id: "review-analytics",
        widget_id: widget.id,
        execution_id: queued.id,
      });
      // Generated reviews have no owner replies: no median response time (docs/pipelines.md, "Reply KPIs").
      if (widget.id === "median_response_time") {
        expect(data).toMatchObject({ state: "no_result", data: null });
        continue;
      }
      expect(data.data, widget.id).not.toBeNull();
      expect(data.data?.kind).toBe(widget.kind);
      kinds.add(widget.kind);
    }
    expect([...kinds].sort()).toEqual(["BarChart", "DataTable", "Heatmap", "LineChart", "PieChart", "StatCard"]);
    const total = await getWidgetData(ctxOf(db, actor), {
      pipeline_id: "review-analytics",
      widget_id: "total_reviews",
      execution_id: queued.id,
    });
    expect(total.data).toMatchObject({ kind: "StatCard", value: detail.stage_metrics.normalize?.items_out });

    const synthesis = await getSynthesis(ctxOf(db, actor), {
      pipeline_id: "review-analytics",
      execution_id: queued.id,
    });
    expect(synthesis.format).toBe("v2");
    expect(synthesis.report).toMatchObject({ report_version: "2.0", writer: "deterministic" });
    expect(Object.keys(synthesis.report ?? {})).toEqual(
      expect.arrayContaining([
        "executive_summary",
        "risk_scorecard",
        "critical_issues",
        "complaint_topics",
        "action_matrix",
        "tracking_kpis",
        "strengths_to_protect",
      ]),
    );

    const history = await listExecutions(
      ctxOf(db, actor),
      ZListExecutionsInput.parse({ pipeline_id: "review-analytics", page: 1, pageSize: 100 }),
    );
    expect(history.items.some((e) => e.id === queued.id)).toBe(true);
    const slowest = await listExecutions(
      ctxOf(db, actor),
      ZListExecutionsInput.parse({
        pipeline_id: "review-analytics",
        status: "succeeded",
        sort: "slowest",
        pageSize: 100,
      }),
    );
    const durations = slowest.items.map((e) => e.total_duration_ms ?? -1);
    expect(durations.length).toBeGreaterThan(0);
    expect(durations).toEqual([...durations].sort((x, y) => y - x));
    const oldest = await listExecutions(
      ctxOf(db, actor),
      ZListExecutionsInput.parse({ pipeline_id: "review-analytics", sort: "oldest", pageSize: 100 }),
    );
    const queuedTimes = oldest.items.map((e) => e.queued_at.getTime());
    expect(queuedTimes).toEqual([...queuedTimes].sort((x, y) => x - y));
    const list = await listPipelines(ctxOf(db, actor));
    expect(list.items.map((p) => p.id)).toContain("review-analytics");
    const details = await getPipeline(ctxOf(db, actor), { pipeline_id: "review-analytics" });
    expect(details.input_schema).toMatchObject({
      type: "object",
      properties: { place_key: { type: "string" }, job_ids: { type: "array" } },
    });
  });

  it("reads the reviews of a set of jobs, or of the jobs of a batch, through job_reviews", async () => {
    const actor = actorOf(await makeUser(db, { admin: true }));
    const place = uid("jobs");
    const all = reviewsOf(place, 30, 11);
    const batch = await db.batch.create({
      data: { requesterClientId: uid("client"), totalJobs: 1 },
      select: { id: true },
    });
    // Two finished collection jobs of the place: one stored 12 of its reviews, the other (in a batch) 20.
    const job = await collectedJob(db, { apiKeyId: null, placeKey: place, reviews: all.slice(0, 12) });
    await collectedJob(db, { apiKeyId: null, placeKey: place, reviews: all.slice(10, 30), batchId: batch.id });
    const byJob = await executePipeline(
      ctxOf(db, actor),
      {
        pipeline_id: "review-analytics",
        input: { job_ids: [job.id] },
      },
      LIMITS,
    );
    const byBatch = await executePipeline(
      ctxOf(db, actor),
      {
        pipeline_id: "review-analytics",
        input: { batch_ids: [batch.id] },
      },
      LIMITS,
    );
    const both = await executePipeline(
      ctxOf(db, actor),
      {
        pipeline_id: "review-analytics",
        input: { job_ids: [job.id], batch_ids: [batch.id] },
      },
      LIMITS,
    );
    for (const run of [byJob, byBatch, both])
      expect(await runExecution(systemCtx(db), { executionId: run.id })).toBe("succeeded");
    const itemsIn = async (id: string) =>
      (await getExecution(ctxOf(db, actor), { pipeline_id: "review-analytics", execution_id: id })).stage_metrics
        .normalize?.items_in;
    expect(await itemsIn(byJob.id)).toBe(12);
    expect(await itemsIn(byBatch.id)).toBe(20);
    expect(await itemsIn(both.id)).toBe(30); // the two reviews both jobs collected are read once
  });

  it("rejects run requests that fail the pipeline's own schema, and unknown pipelines", async () => {
    const actor = actorOf(await makeUser(db, { admin: true }));
    const queue = testQueue(db);
    const bad = await executePipeline(
      ctxOf(db, actor, queue.review),
      {
        pipeline_id: "review-analytics",
        input: { from: "2026-05-01", to: "2026-01-01", origin: "https://x.test" },
      },
      LIMITS,
    ).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(AppError);
    expect((bad as AppError).code).toBe("BAD_REQUEST");
    expect((bad as AppError).details).toMatchObject({
      issues: expect.arrayContaining([
        { path: "place_key", message: "place_key_job_ids_or_batch_ids_required" },
        { path: "origin", message: "origin_needs_place_key" },
      ]),
    });
    const badOrigin = executePipeline(
      ctxOf(db, actor, queue.review),
      {
        pipeline_id: "review-analytics",
        input: { place_key: "x", origin: "https://x.test/path" },
      },
      LIMITS,
    );
    await expect(badOrigin).rejects.toMatchObject({
      code: "BAD_REQUEST",
      details: { issues: [{ path: "origin", message: "invalid_origin" }] },
    });
    await expect(
      executePipeline(ctxOf(db, actor, queue.review), { pipeline_id: "nope", input: {} }, LIMITS),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      getWidgetData(ctxOf(db, actor), { pipeline_id: "review-analytics", widget_id: "nope" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "widget_not_found" });
    expect(await queue.ids()).toEqual([]);
  });

  it("API keys need jobs:read to read and jobs:write to execute; signed-in users must be administrators", async () => {
    const reader = { kind: "apiKey" as const, apiKeyId: "00000000-0000-7000-8000-0000000000aa", scopes: ["jobs:read"] };
    await expect(listPipelines(ctxOf(db, reader))).resolves.toBeTruthy();
    await expect(
      executePipeline(ctxOf(db, reader), { pipeline_id: "review-analytics", input: { place_key: "x" } }, LIMITS),
    ).rejects.toMatchObject({ code: "FORBIDDEN", details: { required: "jobs:write" } });
    await expect(
      listPipelines(ctxOf(db, { kind: "apiKey", apiKeyId: reader.apiKeyId, scopes: [] })),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const user = actorOf(await makeUser(db));
    await expect(listPipelines(ctxOf(db, user))).rejects.toMatchObject({ code: "FORBIDDEN", message: "admin_only" });
    await expect(
      executePipeline(ctxOf(db, user), { pipeline_id: "review-analytics", input: { place_key: "x" } }, LIMITS),
    ).rejects.toMatchObject({ code: "FORBIDDEN", message: "admin_only" });
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
      {
        id: "second",
        name: "Second",
        count: (l: number[]) => l.length,
        run: () => {
          throw new Error("second stage broke");
        },
      },
      { id: "third", name: "Third", count: () => 0, run: () => ({ output: null, itemsOut: 0 }) },
    ] as unknown as PipelineDefinition["stages"],
    dashboard: [],
    prepare: () => Promise.resolve({ first: null, ctx: null }),
    finish: () => ({ result: {}, synthesis: null }),
    widgetData: () => null,
  };

  it("records the stage and error, keeps the metrics of the stages that ran", async () => {
    await syncRegistry(db, [failing]);
    const row = await db.pipelineExecution.create({
      data: { pipelineId: "failing-test", pipelineVersion: "0.0.1", input: { n: 1 } },
    });
    expect(await runExecution(systemCtx(db), { executionId: row.id }, { registry: [failing] })).toBe("failed");
    const stored = await db.pipelineExecution.findUniqueOrThrow({ where: { id: row.id } });
    expect(stored).toMatchObject({
      status: "failed",
      failedStage: "second",
      error: "second stage broke",
      currentStage: null,
    });
    expect(stored.totalDurationMs).not.toBeNull();
    const metrics = stored.stageMetrics as Record<
      string,
      { status: string; items_out: number | null; errors: string[] }
    >;
    expect(metrics.first).toMatchObject({ status: "succeeded", items_out: 3 });
    expect(metrics.second).toMatchObject({ status: "failed", errors: ["second stage broke"] });
    expect(metrics.third?.status).toBe("skipped");
  });

  it("a failed review-analytics execution runs again as a new attempt; only failed ones can", async () => {
    const actor = actorOf(await makeUser(db, { admin: true }));
    const place = await adminPlace("rerun", 20, 5);
    await syncRegistry(db);
    // An execution that failed (e.g. the worker lost its database mid-run).
    const failed = await db.pipelineExecution.create({
      data: {
        pipelineId: "review-analytics",
        pipelineVersion: "1.0.0",
        input: { place_key: place, max_reviews: 100 },
        status: "failed",
        failedStage: "classify",
        error: "connection lost",
      },
    });
    const queue = testQueue(db);
    const again = await rerunExecution(
      ctxOf(db, actor, queue.review),
      {
        pipeline_id: "review-analytics",
        execution_id: failed.id,
      },
      LIMITS,
    );
    expect(again).toMatchObject({ status: "queued", attempt: 2, retry_of_id: failed.id, input: { place_key: place } });
    expect(await runExecution(systemCtx(db), { executionId: again.id })).toBe("succeeded");
    await expect(
      rerunExecution(
        ctxOf(db, actor, queue.review),
        { pipeline_id: "review-analytics", execution_id: again.id },
        LIMITS,
      ),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    // A stored input that no longer fits the schema fails in prepare, with the reason.
    const broken = await db.pipelineExecution.create({
      data: { pipelineId: "review-analytics", pipelineVersion: "1.0.0", input: { max_reviews: 5 } },
    });
    expect(await runExecution(systemCtx(db), { executionId: broken.id })).toBe("failed");
    expect(await db.pipelineExecution.findUniqueOrThrow({ where: { id: broken.id } })).toMatchObject({
      failedStage: "prepare",
    });
  });
});

describe("lost workers", () => {
  it("marks executions running longer than the stale time failed, and leaves recent ones", async () => {
    await syncRegistry(db);
    // A run holds its execution for its lease (PIPELINE_STALE_AFTER_MS); one whose lease passed after
    // its last run is failed by the next take, as the stale sweep did, and a recent one is left running.
    const review = testQueue(db).review;
    const queue = review.JOB_QUEUE;
    const now = new Date();
    const old = await db.pipelineExecution.create({
      data: {
        pipelineId: "review-analytics",
        pipelineVersion: "1.0.0",
        input: { place_key: "x" },
        status: "running",
        queue,
        runs: 3,
        startedAt: new Date(now.getTime() - 3_600_000),
        leaseUntil: new Date(now.getTime() - 1_800_000),
      },
    });
    const fresh = await db.pipelineExecution.create({
      data: {
        pipelineId: "review-analytics",
        pipelineVersion: "1.0.0",
        input: { place_key: "x" },
        status: "running",
        queue,
        runs: 1,
        startedAt: now,
        leaseUntil: new Date(now.getTime() + 1_800_000),
      },
    });
    expect(review.JOB_MAX_ATTEMPTS).toBe(3);
    const taken = await takeExecutions(systemCtx(db, review), { limit: 4, leaseMs: 30 * 60_000 });
    expect(taken.givenUp).toBeGreaterThanOrEqual(1);
    expect(await db.pipelineExecution.findUniqueOrThrow({ where: { id: old.id } })).toMatchObject({
      status: "failed",
      failedStage: "worker",
      error: "worker_lost",
    });
    expect((await db.pipelineExecution.findUniqueOrThrow({ where: { id: fresh.id } })).status).toBe("running");
    await db.pipelineExecution.delete({ where: { id: fresh.id } });
  });

  it("takes over a run whose worker died, as jobs are, and the lost run writes nothing more", async () => {
    const actor = actorOf(await makeUser(db, { admin: true }));
    const place = await adminPlace("takeover", 20, 4);
    const review = testQueue(db).review;
    const queued = await executePipeline(
      ctxOf(db, actor, review),
      { pipeline_id: "review-analytics", input: { place_key: place } },
      LIMITS,
    );
    const take = { limit: 4, leaseMs: 30 * 60_000 };
    const worker = systemCtx(db, review);
    const first = await takeExecutions(worker, take);
    expect(first.claimed).toEqual([{ id: queued.id, runs: 1, recovered: false }]);
    expect((await takeExecutions(worker, take)).claimed).toEqual([]); // held by its run
    // Its worker dies: the lease passes, and the next take claims the run again.
    await db.pipelineExecution.update({ where: { id: queued.id }, data: { leaseUntil: new Date(Date.now() - 1_000) } });
    const second = await takeExecutions(worker, take);
    expect(second.claimed).toEqual([{ id: queued.id, runs: 2, recovered: true }]);
    // The heartbeat of the lost run is refused (fenced on its run); the live run's moves its lease on.
    expect(await renewExecutionLease(worker, { run: first.claimed[0]!, leaseMs: 60_000 })).toBe(false);
    const before = (await db.pipelineExecution.findUniqueOrThrow({ where: { id: queued.id } })).leaseUntil!;
    expect(await renewExecutionLease(worker, { run: second.claimed[0]!, leaseMs: 40 * 60_000 })).toBe(true);
    const after = (await db.pipelineExecution.findUniqueOrThrow({ where: { id: queued.id } })).leaseUntil!;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
    expect(await runClaimedExecution(systemCtx(db), first.claimed[0]!)).toBe("skipped");
    expect(await runClaimedExecution(systemCtx(db), second.claimed[0]!)).toBe("succeeded");
    expect(await db.pipelineExecution.findUniqueOrThrow({ where: { id: queued.id } })).toMatchObject({
      status: "succeeded",
      runs: 2,
      leaseUntil: null,
    });
  });
});
