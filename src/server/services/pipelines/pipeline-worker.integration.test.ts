import { afterAll, describe, expect, it } from "vitest";
import { logger } from "@/server/core/logger";
import { bossExecutionQueue } from "@/server/pipelines/queue";
import { storeGeneratedReviews } from "@/server/pipelines/review-analytics/demo-data";
import { startBoss } from "@/server/queue/boss";
import { testDb, uid } from "@/test/helpers";
import { actorOf, makeUser } from "@/test/mesh-fixtures";
import { testSettings } from "@/test/review-fixtures";
import { startPipelineWorker } from "@/worker/pipelines";
import { executePipeline } from "./execute-pipeline";

// The worker's side of executions (its own file: it needs the queue, the other pipeline tests do not).
const db = testDb();
afterAll(() => db.$disconnect());

describe("worker on pg-boss", () => {
  it("takes a queued execution from the queue and completes it", async () => {
    const url = process.env.DATABASE_URL as string;
    // One instance, as in the worker: the sender and the consumer share it.
    const boss = await startBoss({ url, settings: testSettings(), supervise: false });
    const worker = await startPipelineWorker({ boss, db, log: logger(), concurrency: 1, llm: null });
    const queue = bossExecutionQueue(() => Promise.resolve(boss));
    try {
      const actor = actorOf(await makeUser(db, { admin: true }));
      const place = uid("boss");
      const job = await db.job.create({ data: { requesterClientId: uid("client"), placeId: place, status: "succeeded" }, select: { id: true } });
      await storeGeneratedReviews(db, job.id, place, { count: 40, seed: 9 });
      const run = await executePipeline({ db, queue, maxActivePerPrincipal: 2 }, actor, { pipeline_id: "review-analytics", input: { place_key: place } });
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
