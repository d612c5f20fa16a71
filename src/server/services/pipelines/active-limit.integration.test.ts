import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import { testDb, uid } from "@/test/helpers";
import { actorOf, makeUser } from "@/test/mesh-fixtures";
import { collectedJob, ctxOf, makeApiKey, reviewsOf, systemCtx, testQueue } from "@/test/pipeline-fixtures";
import { executePipeline, rerunExecution } from "./execute-pipeline";
import { runExecution } from "./run-execution";

// PIPELINE_MAX_ACTIVE_PER_PRINCIPAL: executions queued or running at once per API key or user.
const db = testDb();
afterAll(() => db.$disconnect());

const PIPELINE = "review-analytics";
const LIMIT = 2;

async function keyWithPlace() {
  const key = await makeApiKey(db, ["jobs:read", "jobs:write"]);
  const place = uid("limit");
  await collectedJob(db, { apiKeyId: key.id, placeKey: place, reviews: reviewsOf(place, 5) });
  return { ...key, place };
}

describe("active executions per principal", () => {
  it("the execution limit answers 429 above 2 active, and frees a slot when a run ends", async () => {
    const a = await keyWithPlace();
    const queue = testQueue(db);
    const limits = { maxActivePerPrincipal: LIMIT };
    const execute = () =>
      executePipeline(
        ctxOf(db, a.actor, queue.review),
        { pipeline_id: PIPELINE, input: { place_key: a.place } },
        limits,
      );
    const first = await execute();
    await execute();
    const refused = await execute().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: "too_many_active_executions",
      details: { limit: LIMIT },
    });
    expect(await queue.ids()).toHaveLength(2);

    // Another principal has its own count.
    const other = await keyWithPlace();
    await expect(
      executePipeline(ctxOf(db, other.actor), { pipeline_id: PIPELINE, input: { place_key: other.place } }, limits),
    ).resolves.toMatchObject({ status: "queued" });

    // A run that ends (succeeded here) frees its slot; a running one still counts.
    expect(await runExecution(systemCtx(db), { executionId: first.id })).toBe("succeeded");
    const third = await execute();
    await db.pipelineExecution.update({ where: { id: third.id }, data: { status: "running" } });
    await expect(execute()).rejects.toMatchObject({ message: "too_many_active_executions" });

    // A rerun counts too.
    const failed = await db.pipelineExecution.update({ where: { id: third.id }, data: { status: "failed" } });
    const rerun = await rerunExecution(ctxOf(db, a.actor), { pipeline_id: PIPELINE, execution_id: failed.id }, limits);
    expect(rerun.status).toBe("queued");
    const failedAgain = await db.pipelineExecution.create({
      data: {
        pipelineId: PIPELINE,
        pipelineVersion: "1.0.0",
        input: { place_key: a.place },
        status: "failed",
        triggeredByApiKeyId: a.id,
        readScopeApiKeyId: a.id,
      },
    });
    await expect(
      rerunExecution(ctxOf(db, a.actor), { pipeline_id: PIPELINE, execution_id: failedAgain.id }, limits),
    ).rejects.toMatchObject({ message: "too_many_active_executions" });
  });

  it("requests racing at the limit never make more than 2 active executions", async () => {
    const a = await keyWithPlace();
    const limits = { maxActivePerPrincipal: LIMIT };
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        executePipeline(ctxOf(db, a.actor), { pipeline_id: PIPELINE, input: { place_key: a.place } }, limits),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(LIMIT);
    for (const r of results.filter((x) => x.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        code: "TOO_MANY_REQUESTS",
        message: "too_many_active_executions",
      });
    }
    expect(
      await db.pipelineExecution.count({ where: { triggeredByApiKeyId: a.id, status: { in: ["queued", "running"] } } }),
    ).toBe(LIMIT);
  });

  it("a signed-in administrator is a principal of their own", async () => {
    const admin = actorOf(await makeUser(db, { admin: true }));
    const a = await keyWithPlace();
    const limits = { maxActivePerPrincipal: 1 };
    await executePipeline(ctxOf(db, admin), { pipeline_id: PIPELINE, input: { place_key: a.place } }, limits);
    await expect(
      executePipeline(ctxOf(db, admin), { pipeline_id: PIPELINE, input: { place_key: a.place } }, limits),
    ).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    // The key's own slot is untouched by the administrator's run over its data.
    await expect(
      executePipeline(ctxOf(db, a.actor), { pipeline_id: PIPELINE, input: { place_key: a.place } }, limits),
    ).resolves.toMatchObject({ status: "queued" });
  });
});
