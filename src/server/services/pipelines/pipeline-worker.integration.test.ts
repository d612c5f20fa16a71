import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { logger } from "@/server/core/logger";
import { findPipeline, syncRegistry } from "@/server/pipelines/registry";
import type { PipelineDefinition } from "@/server/pipelines/types";
import { storeGeneratedReviews } from "@/server/pipelines/review-analytics/demo-data";
import { testDb, uid } from "@/test/helpers";
import { actorOf, makeUser } from "@/test/mesh-fixtures";
import { ctxOf, systemCtx } from "@/test/pipeline-fixtures";
import { testSettings } from "@/test/review-fixtures";
import { createWorkerMetrics, executionObserver } from "@/worker/metrics";
import { startPipelineWorker } from "@/worker/pipelines";
import { executePipeline } from "./execute-pipeline";

// The worker's side of executions (its own file: it needs the queue, the other pipeline tests do not).
const db = testDb();
afterAll(() => db.$disconnect());

describe("worker on the product's queue", () => {
  it("takes a queued execution from the queue and completes it, timing each stage in the worker's metrics", async () => {
    // The sender and the worker on one work queue of this test's own, as the web app and the worker share one.
    const review = testSettings();
    const metrics = createWorkerMetrics();
    const worker = startPipelineWorker(systemCtx(db, review), {
      log: logger(),
      concurrency: 1,
      llm: null,
      observer: executionObserver(metrics),
    });
    try {
      const actor = actorOf(await makeUser(db, { admin: true }));
      const place = uid("boss");
      const job = await db.job.create({
        data: { requesterClientId: uid("client"), placeId: place, status: "succeeded" },
        select: { id: true },
      });
      await storeGeneratedReviews(db, job.id, place, { count: 40, seed: 9 });
      const run = await executePipeline(
        ctxOf(db, actor, review),
        {
          pipeline_id: "review-analytics",
          input: { place_key: place },
        },
        { maxActivePerPrincipal: 2 },
      );
      const deadline = Date.now() + 30_000;
      let status = run.status as string;
      while (Date.now() < deadline && (status === "queued" || status === "running")) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await db.pipelineExecution.findUniqueOrThrow({ where: { id: run.id }, select: { status: true } }))
          .status;
      }
      expect(status).toBe("succeeded");
      // Told right after the row is stored: every stage of the pipeline, once.
      let text = "";
      for (let i = 0; i < 50 && !text.includes("worker_pipeline_executions_total{"); i++) {
        text = await metrics.registry.metrics();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(text).toMatch(/^worker_pipeline_executions_total\{pipeline="review-analytics",status="succeeded"\} 1$/m);
      const stages = findPipeline("review-analytics")?.stages.map((s) => s.id) ?? [];
      expect(stages.length).toBeGreaterThan(1);
      for (const stage of stages) {
        expect(text).toMatch(
          new RegExp(
            `^worker_pipeline_stage_duration_seconds_count\\{pipeline="review-analytics",stage="${stage}",status="succeeded"\\} 1$`,
            "m",
          ),
        );
      }
    } finally {
      await worker.stop(5_000);
    }
  });

  it("keeps a run longer than its lease while its worker lives (renewed), and another worker does not run it again", async () => {
    const review = testSettings({ JOB_HEARTBEAT_MS: "200" });
    let stageRuns = 0;
    const slow: PipelineDefinition = {
      id: "slow-lease-test",
      name: "Slow",
      description: "one stage of 3 s",
      version: "0.0.1",
      inputSchema: z.object({ n: z.number() }) as z.ZodType<unknown>,
      stages: [
        {
          id: "wait",
          name: "Wait",
          count: () => 1,
          run: async () => {
            stageRuns += 1;
            await new Promise((r) => setTimeout(r, 3_000));
            return { output: null, itemsOut: 1 };
          },
        },
      ] as unknown as PipelineDefinition["stages"],
      dashboard: [],
      prepare: () => Promise.resolve({ first: null, ctx: null }),
      finish: () => ({ result: {}, synthesis: null }),
      widgetData: () => null,
    };
    await syncRegistry(db, [slow]);
    const opts = { log: logger(), concurrency: 1, llm: null, leaseMs: 1_000, registry: [slow] };
    const first = startPipelineWorker(systemCtx(db, review), opts);
    let second: ReturnType<typeof startPipelineWorker> | undefined;
    try {
      const row = await db.pipelineExecution.create({
        data: { pipelineId: slow.id, pipelineVersion: slow.version, input: { n: 1 }, queue: review.JOB_QUEUE },
      });
      const running = async () =>
        (await db.pipelineExecution.findUniqueOrThrow({ where: { id: row.id } })).status === "running";
      for (let i = 0; i < 100 && !(await running()); i++) await new Promise((r) => setTimeout(r, 50));
      // A second worker on the queue, idle, while the run outlives its lease three times.
      second = startPipelineWorker(systemCtx(db, review), opts);
      let ended = await db.pipelineExecution.findUniqueOrThrow({ where: { id: row.id } });
      for (let i = 0; i < 200 && ended.status === "running"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        ended = await db.pipelineExecution.findUniqueOrThrow({ where: { id: row.id } });
      }
      expect(ended).toMatchObject({ status: "succeeded", runs: 1, leaseUntil: null });
      expect(stageRuns).toBe(1);
    } finally {
      await Promise.all([first.stop(5_000), second?.stop(5_000)]);
    }
  });
});
