import { afterAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/services/actor";
import { testDb, uid } from "@/test/helpers";
import { collectedJob, ctxOf, makeApiKey, reviewsOf, systemCtx } from "@/test/pipeline-fixtures";
import { executePipeline } from "./execute-pipeline";
import { getExecution } from "./executions";
import { runExecution } from "./run-execution";

// A run over no reviews says which filter left nothing (docs/pipelines.md, "Runs over nothing"),
// instead of a plain success: the reason is stored with the run and answered as empty_reason.
const db = testDb();
afterAll(() => db.$disconnect());

const PIPELINE = "review-analytics";
const LIMITS = { maxActivePerPrincipal: 1_000 };

/** Submits and runs one execution in this process; answers the run as the API does. */
async function ran(actor: Actor, input: Record<string, unknown>) {
  const run = await executePipeline(ctxOf(db, actor), { pipeline_id: PIPELINE, input }, LIMITS);
  expect(await runExecution(systemCtx(db), { executionId: run.id })).toBe("succeeded");
  return getExecution(ctxOf(db, actor), { pipeline_id: PIPELINE, execution_id: run.id });
}

/** A job of the key with no reviews, in the given state. */
const emptyJob = (apiKeyId: string, status: "queued" | "succeeded") =>
  db.job.create({
    data: { apiKeyId, requesterClientId: uid("client"), placeId: uid("p"), status },
    select: { id: true },
  });

describe("runs over no reviews", () => {
  it("name the filter that left nothing: the dates, the place within the jobs, unfinished or empty jobs", async () => {
    const key = await makeApiKey(db, ["jobs:read", "jobs:write"]);
    const placeA = uid("place-a");
    const placeB = uid("place-b");
    const jobA = await collectedJob(db, { apiKeyId: key.id, placeKey: placeA, reviews: reviewsOf(placeA, 5) });
    await collectedJob(db, { apiKeyId: key.id, placeKey: placeB, reviews: reviewsOf(placeB, 5) });

    const full = await ran(key.actor, { place_key: placeA });
    expect(full.review_count).toBe(5);
    expect(full.empty_reason).toBeNull();

    const dated = await ran(key.actor, { place_key: placeA, from: "2000-01-01", to: "2000-01-31" });
    expect(dated).toMatchObject({ status: "succeeded", review_count: 0, empty_reason: "none_in_date_range" });

    const elsewhere = await ran(key.actor, { job_ids: [jobA.id], place_key: placeB });
    expect(elsewhere).toMatchObject({ review_count: 0, empty_reason: "place_not_in_jobs" });

    const queued = await emptyJob(key.id, "queued");
    expect(await ran(key.actor, { job_ids: [queued.id] })).toMatchObject({ empty_reason: "jobs_not_finished" });

    const finished = await emptyJob(key.id, "succeeded");
    expect(await ran(key.actor, { job_ids: [finished.id] })).toMatchObject({ empty_reason: "jobs_have_no_reviews" });
  });
});
