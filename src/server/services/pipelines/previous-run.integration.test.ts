// Issue 20, point 4: the report compares with the previous run of the same places, and never with a
// run of another read scope (its figures are its owner's).
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { storeGeneratedReviews } from "@/server/pipelines/review-analytics/demo-data";
import { previousRun } from "@/server/pipelines/review-analytics/previous-run";
import type { ReportV2 } from "@/server/pipelines/review-analytics/synthesis/report";
import { testDb, uid } from "@/test/helpers";
import { actorOf, makeUser } from "@/test/mesh-fixtures";
import { ctxOf, systemCtx } from "@/test/pipeline-fixtures";
import { executePipeline } from "./execute-pipeline";
import { getSynthesis } from "./execution-views";
import { runExecution } from "./run-execution";

const db = testDb();
afterAll(() => db.$disconnect());

async function adminPlace(count: number, seed: number) {
  const place = uid("cmp");
  const job = await db.job.create({
    data: { requesterClientId: uid("client"), placeId: place, status: "succeeded" },
    select: { id: true },
  });
  await storeGeneratedReviews(db, job.id, place, { count, seed, duplicateShare: 0 });
  return { place, jobId: job.id };
}

describe("comparison with the previous run", () => {
  it("the second run of a place compares with the first; another place or read scope does not", async () => {
    const actor = actorOf(await makeUser(db, { admin: true }));
    const { place, jobId } = await adminPlace(80, 11);
    const run = async (placeKey: string) => {
      const queued = await executePipeline(
        ctxOf(db, actor),
        {
          pipeline_id: "review-analytics",
          input: { place_key: placeKey },
        },
        { maxActivePerPrincipal: 1_000 },
      );
      expect(await runExecution(systemCtx(db), { executionId: queued.id })).toBe("succeeded");
      return {
        id: queued.id,
        report: (await getSynthesis(ctxOf(db, actor), { pipeline_id: "review-analytics", execution_id: queued.id }))
          .report as unknown as ReportV2,
      };
    };
    const first = await run(place);
    expect(first.report.comparison).toBeNull();

    // More reviews arrive (ids by index: the first 80 are the same reviews again, 40 are new).
    await storeGeneratedReviews(db, jobId, place, { count: 120, seed: 11, duplicateShare: 0 });
    const second = await run(place);
    expect(second.report.comparison?.execution_id).toBe(first.id);
    expect(second.report.comparison?.metrics.find((m) => m.metric === "reviews")).toMatchObject({
      before: 80,
      now: 120,
      change: 40,
      direction: "up",
    });
    expect(second.report.executive_summary.narrative).toContain("Since the previous run of these places");

    const other = await run((await adminPlace(30, 13)).place);
    expect(other.report.comparison).toBeNull();

    // The same place seen through an API key's read scope: the administrators' runs are not its own.
    const places = [{ place_key: place, origin: "https://demo.invalid", name: null, reviews: 120 }];
    expect((await previousRun(db, places, null))?.execution_id).toBe(second.id);
    expect(await previousRun(db, places, randomUUID())).toBeNull();
  });
});
