import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import { rejectionOf } from "@/test/rejection";
import { ZReviewAnalyticsInput } from "@/server/pipelines/review-analytics/input";
import { loadReviews } from "@/server/pipelines/review-analytics/load";
import { syncRegistry } from "@/server/pipelines/registry";
import type { Actor } from "@/server/services/actor";
import { testDb, uid } from "@/test/helpers";
import { actorOf, makeUser } from "@/test/mesh-fixtures";
import {
  collectedJob,
  ctxOf,
  makeApiKey,
  makeBatch,
  reviewsOf,
  systemCtx,
  testQueue,
  TEST_ORIGIN,
} from "@/test/pipeline-fixtures";
import { ZListExecutionsInput } from "./schemas";
import { executePipeline, rerunExecution } from "./execute-pipeline";
import { getExecutionSelection, getSynthesis, getWidgetData } from "./execution-views";
import { getExecution, listExecutions } from "./executions";
import { listPipelines } from "./pipelines";
import { runExecution } from "./run-execution";

// Ownership of pipeline executions (docs/pipelines.md, "Ownership and limits"): who may run over
// which data, who sees which run, and how many runs a principal may have in flight.
const db = testDb();
afterAll(() => db.$disconnect());

const PIPELINE = "review-analytics";
const LIMITS = { maxActivePerPrincipal: 1_000 };
const WRITE = ["jobs:read", "jobs:write"] as const;

/** Submits and runs one execution in this process; returns its id. */
async function ran(actor: Actor, input: Record<string, unknown>): Promise<string> {
  const run = await executePipeline(ctxOf(db, actor), { pipeline_id: PIPELINE, input }, LIMITS);
  expect(await runExecution(systemCtx(db), { executionId: run.id })).toBe("succeeded");
  return run.id;
}

/** Key A with a job (in a batch) that collected 20 reviews of its own place. */
async function keyWithData() {
  const key = await makeApiKey(db, [...WRITE]);
  const place = uid("place-a");
  const batch = await makeBatch(db, key.id);
  const job = await collectedJob(db, {
    apiKeyId: key.id,
    placeKey: place,
    reviews: reviewsOf(place, 20),
    placeName: "Casa A",
    batchId: batch.id,
  });
  return { ...key, place, batch, job };
}

describe("pipeline ownership", () => {
  it("cross-key pipeline inputs answer 404, as for absent data, and queue nothing", async () => {
    const a = await keyWithData();
    const b = await makeApiKey(db, [...WRITE]);
    const mine = await collectedJob(db, { apiKeyId: b.id, placeKey: uid("place-b"), reviews: reviewsOf("b", 3) });
    const queue = testQueue(db);
    const execute = (input: Record<string, unknown>) =>
      executePipeline(
        ctxOf(db, b.actor, queue.review),
        { pipeline_id: PIPELINE, input },
        { maxActivePerPrincipal: 1_000 },
      );

    expect(await rejectionOf(execute({ job_ids: [a.job.id] }), AppError)).toMatchObject({
      code: "NOT_FOUND",
      message: "job_not_found",
      details: { job_ids: [a.job.id] },
    });
    // One foreign id among the caller's own is enough to refuse the whole request.
    expect(await rejectionOf(execute({ job_ids: [mine.id, a.job.id] }), AppError)).toMatchObject({
      code: "NOT_FOUND",
      message: "job_not_found",
      details: { job_ids: [a.job.id] },
    });
    expect(await rejectionOf(execute({ batch_ids: [a.batch.id] }), AppError)).toMatchObject({
      code: "NOT_FOUND",
      message: "batch_not_found",
    });
    expect(await rejectionOf(execute({ place_key: a.place }), AppError)).toMatchObject({
      code: "NOT_FOUND",
      message: "place_not_found",
    });
    // The same answers as for data that does not exist at all.
    expect(await rejectionOf(execute({ job_ids: ["0195d0a8-0000-7000-8000-00000000f00d"] }), AppError)).toMatchObject({
      message: "job_not_found",
    });
    expect(await rejectionOf(execute({ place_key: uid("nowhere") }), AppError)).toMatchObject({
      message: "place_not_found",
    });
    // The place exists for A on its origin only.
    expect(
      await rejectionOf(
        executePipeline(
          ctxOf(db, a.actor),
          {
            pipeline_id: PIPELINE,
            input: { place_key: a.place, origin: "https://other.test" },
          },
          LIMITS,
        ),
        AppError,
      ),
    ).toMatchObject({ message: "place_not_found" });
    expect(await queue.ids()).toEqual([]);
    expect(await db.pipelineExecution.count({ where: { triggeredByApiKeyId: b.id } })).toBe(0);

    // A itself may, by job, batch and place (also naming its origin).
    await expect(
      executePipeline(
        ctxOf(db, a.actor),
        {
          pipeline_id: PIPELINE,
          input: { job_ids: [a.job.id], batch_ids: [a.batch.id], place_key: a.place, origin: TEST_ORIGIN },
        },
        LIMITS,
      ),
    ).resolves.toMatchObject({ status: "queued" });
  });

  it("another key's executions, widget data, synthesis, detail and rerun answer 404 and stay out of its history", async () => {
    const a = await keyWithData();
    const b = await makeApiKey(db, [...WRITE]);
    const runA = await ran(a.actor, { place_key: a.place });
    const failedA = await db.pipelineExecution.create({
      data: {
        pipelineId: PIPELINE,
        pipelineVersion: "1.0.0",
        input: { place_key: a.place },
        status: "failed",
        failedStage: "classify",
        triggeredByApiKeyId: a.id,
        readScopeApiKeyId: a.id,
      },
    });
    const ids = { pipeline_id: PIPELINE, execution_id: runA };
    for (const attempt of [
      () => getExecution(ctxOf(db, b.actor), ids),
      () => getWidgetData(ctxOf(db, b.actor), { ...ids, widget_id: "total_reviews" }),
      () => getSynthesis(ctxOf(db, b.actor), ids),
      () => getExecutionSelection(ctxOf(db, b.actor), ids),
      () => rerunExecution(ctxOf(db, b.actor), { pipeline_id: PIPELINE, execution_id: failedA.id }, LIMITS),
    ]) {
      expect(await rejectionOf(attempt(), AppError)).toMatchObject({
        code: "NOT_FOUND",
        message: "execution_not_found",
      });
    }
    const history = await listExecutions(
      ctxOf(db, b.actor),
      ZListExecutionsInput.parse({ pipeline_id: PIPELINE, pageSize: 100 }),
    );
    expect(history.total).toBe(0);
    // B has no run: nothing is its default, and the list shows it no latest run.
    expect(
      await rejectionOf(
        getWidgetData(ctxOf(db, b.actor), { pipeline_id: PIPELINE, widget_id: "total_reviews" }),
        AppError,
      ),
    ).toMatchObject({ message: "no_succeeded_execution" });
    expect(await getExecutionSelection(ctxOf(db, b.actor), { pipeline_id: PIPELINE })).toEqual({
      pipeline_id: PIPELINE,
      current: null,
      choices: [],
    });
    expect((await listPipelines(ctxOf(db, b.actor))).items.find((p) => p.id === PIPELINE)?.latest_execution).toBeNull();

    // A sees its own, and its runs only.
    const own = await listExecutions(
      ctxOf(db, a.actor),
      ZListExecutionsInput.parse({ pipeline_id: PIPELINE, pageSize: 100 }),
    );
    expect(own.items.map((e) => e.id).sort()).toEqual([runA, failedA.id].sort());
    expect((await listPipelines(ctxOf(db, a.actor))).items.find((p) => p.id === PIPELINE)?.latest_execution?.id).toBe(
      failedA.id,
    );
    expect(
      (await getWidgetData(ctxOf(db, a.actor), { pipeline_id: PIPELINE, widget_id: "total_reviews" })).execution_id,
    ).toBe(runA);
  });

  it("administrators see every execution and may run over any key's data", async () => {
    const a = await keyWithData();
    const runA = await ran(a.actor, { job_ids: [a.job.id] });
    const adminKey = await makeApiKey(db, ["admin"]);
    const adminUser = actorOf(await makeUser(db, { admin: true }));
    for (const admin of [adminKey.actor, adminUser]) {
      const ids = { pipeline_id: PIPELINE, execution_id: runA };
      await expect(getExecution(ctxOf(db, admin), ids)).resolves.toMatchObject({ id: runA, review_count: 20 });
      await expect(getWidgetData(ctxOf(db, admin), { ...ids, widget_id: "total_reviews" })).resolves.toMatchObject({
        state: "ready",
        data: { value: 20 },
      });
      await expect(getSynthesis(ctxOf(db, admin), ids)).resolves.toMatchObject({ state: "ready", format: "v2" });
      const history = await listExecutions(
        ctxOf(db, admin),
        ZListExecutionsInput.parse({ pipeline_id: PIPELINE, pageSize: 100 }),
      );
      expect(history.items.map((e) => e.id)).toContain(runA);
    }
    // An administrator's run reads every job (no read scope), also another key's.
    const adminRun = await executePipeline(
      ctxOf(db, adminUser),
      {
        pipeline_id: PIPELINE,
        input: { batch_ids: [a.batch.id], place_key: a.place },
      },
      LIMITS,
    );
    expect(
      await db.pipelineExecution.findUniqueOrThrow({
        where: { id: adminRun.id },
        select: { readScopeApiKeyId: true, triggeredByUserId: true },
      }),
    ).toEqual({
      readScopeApiKeyId: null,
      triggeredByUserId: adminUser.userId,
    });
    expect(await runExecution(systemCtx(db), { executionId: adminRun.id })).toBe("succeeded");
    // Key A's runs are scoped to A.
    expect((await db.pipelineExecution.findUniqueOrThrow({ where: { id: runA } })).readScopeApiKeyId).toBe(a.id);
  });

  it("records the places a run analysed, with the name a job recorded", async () => {
    const a = await keyWithData();
    const other = uid("place-a2");
    await collectedJob(db, { apiKeyId: a.id, placeKey: other, reviews: reviewsOf(other, 5), batchId: a.batch.id });
    const id = await ran(a.actor, { batch_ids: [a.batch.id] });
    const detail = await getExecution(ctxOf(db, a.actor), { pipeline_id: PIPELINE, execution_id: id });
    expect(detail.review_count).toBe(25);
    expect(detail.places).toEqual([
      { place_key: a.place, origin: TEST_ORIGIN, name: "Casa A", reviews: 20 },
      { place_key: other, origin: TEST_ORIGIN, name: null, reviews: 5 },
    ]);
    const selection = await getExecutionSelection(ctxOf(db, a.actor), { pipeline_id: PIPELINE });
    expect(selection.current).toMatchObject({ id, review_count: 25, places: detail.places });
    expect(selection.choices.map((c) => c.id)).toEqual([id]);
  });

  it("the loader reads only the scope's reviews even when another key collected the same place", async () => {
    const a = await keyWithData();
    const b = await makeApiKey(db, [...WRITE]);
    const ofA = reviewsOf(a.place, 20);
    // B collected the same place: 5 of A's reviews as they were, one edited since, and 10 A never saw.
    const edited = { ...ofA[0]!, text: "Edited later: the soup was cold.", rating: 1 };
    const more = reviewsOf(a.place, 30).slice(20);
    await collectedJob(db, {
      apiKeyId: b.id,
      placeKey: a.place,
      reviews: [edited, ...ofA.slice(1, 5), ...more],
      placeName: "Casa B",
    });

    const input = ZReviewAnalyticsInput.parse({ place_key: a.place });
    const readByA = await loadReviews(db, input, a.id);
    const readByB = await loadReviews(db, input, b.id);
    const readByAdmin = await loadReviews(db, input, null);
    expect(readByA.reviews).toHaveLength(20);
    expect(readByA.reviews.some((r) => r.text === edited.text)).toBe(false);
    expect(readByA.places).toEqual([{ place_key: a.place, origin: TEST_ORIGIN, name: "Casa A", reviews: 20 }]);
    expect(readByB.reviews).toHaveLength(15);
    expect(readByB.places[0]?.name).toBe("Casa B");
    // Administrators read every version, and of each review the newest one only.
    expect(readByAdmin.reviews).toHaveLength(30);
    expect(readByAdmin.reviews.filter((r) => r.text === edited.text)).toHaveLength(1);
    expect(readByAdmin.reviews.some((r) => r.text === ofA[0]!.text)).toBe(false);

    // Through the service: A's run reads A's 20, B's run B's 15.
    const runA = await ran(a.actor, { place_key: a.place });
    const runB = await ran(b.actor, { place_key: a.place });
    expect(
      (await getExecution(ctxOf(db, a.actor), { pipeline_id: PIPELINE, execution_id: runA })).stage_metrics.normalize
        ?.items_in,
    ).toBe(20);
    expect(
      (await getExecution(ctxOf(db, b.actor), { pipeline_id: PIPELINE, execution_id: runB })).stage_metrics.normalize
        ?.items_in,
    ).toBe(15);
  });

  it("a rerun takes the re-running caller's scope and checks the input again", async () => {
    const a = await keyWithData();
    const b = await makeApiKey(db, [...WRITE]);
    await syncRegistry(db);
    // A failed run of B whose input names A's job (as a run written before inputs were checked could).
    const stale = await db.pipelineExecution.create({
      data: {
        pipelineId: PIPELINE,
        pipelineVersion: "1.0.0",
        input: { job_ids: [a.job.id] },
        status: "failed",
        failedStage: "prepare",
        triggeredByApiKeyId: b.id,
      },
    });
    expect(
      await rejectionOf(
        rerunExecution(ctxOf(db, b.actor), { pipeline_id: PIPELINE, execution_id: stale.id }, LIMITS),
        AppError,
      ),
    ).toMatchObject({ message: "job_not_found" });
    // An administrator may re-run it: the new attempt reads with the administrator's scope.
    const admin = await makeApiKey(db, ["admin"]);
    const again = await rerunExecution(
      ctxOf(db, admin.actor),
      { pipeline_id: PIPELINE, execution_id: stale.id },
      LIMITS,
    );
    expect(again).toMatchObject({ attempt: 2, retry_of_id: stale.id });
    expect(
      await db.pipelineExecution.findUniqueOrThrow({
        where: { id: again.id },
        select: { readScopeApiKeyId: true, triggeredByApiKeyId: true },
      }),
    ).toEqual({
      readScopeApiKeyId: null,
      triggeredByApiKeyId: admin.id,
    });
  });
});
