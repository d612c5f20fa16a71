import { afterAll, describe, expect, it } from "vitest";
import { NO_ITEMS_WARNING } from "@/server/pipelines/stage-warnings";
import { testDb, uid } from "@/test/helpers";
import { actorOf, makeUser } from "@/test/mesh-fixtures";
import { collectedJob, ctxOf, makeApiKey, reviewsOf, systemCtx } from "@/test/pipeline-fixtures";
import type { Actor } from "@/server/services/actor";
import { executePipeline } from "./execute-pipeline";
import { getExecutionSelection, getSynthesis, getWidgetData } from "./execution-views";
import { getExecution } from "./executions";
import { runExecution } from "./run-execution";

// Which execution a dashboard, a widget and a report show when none is chosen, and runs with nothing to analyse.
const db = testDb();
afterAll(() => db.$disconnect());

const PIPELINE = "review-analytics";
const LIMITS = { maxActivePerPrincipal: 1_000 };

async function ran(actor: Actor, input: Record<string, unknown>): Promise<string> {
  const run = await executePipeline(ctxOf(db, actor), { pipeline_id: PIPELINE, input }, LIMITS);
  expect(await runExecution(systemCtx(db), { executionId: run.id })).toBe("succeeded");
  return run.id;
}

describe("default view and runs without reviews", () => {
  it("a run with no reviews succeeds with review_count 0 and never replaces a non-empty default view", async () => {
    const key = await makeApiKey(db, ["jobs:read", "jobs:write"]);
    const place = uid("full");
    await collectedJob(db, {
      apiKeyId: key.id,
      placeKey: place,
      reviews: reviewsOf(place, 12),
      placeName: "Full House",
    });
    const emptyJob = await collectedJob(db, { apiKeyId: key.id, placeKey: uid("empty"), reviews: [] });
    const full = await ran(key.actor, { place_key: place });
    // Two runs after it that read nothing: a job that stored no review, a date range without one.
    const noneByJob = await ran(key.actor, { job_ids: [emptyJob.id] });
    const noneByDate = await ran(key.actor, { place_key: place, from: "2001-01-01", to: "2001-12-31" });

    for (const id of [noneByJob, noneByDate]) {
      const detail = await getExecution(ctxOf(db, key.actor), { pipeline_id: PIPELINE, execution_id: id });
      expect(detail).toMatchObject({ status: "succeeded", review_count: 0, places: [], error: null });
      for (const m of Object.values(detail.stage_metrics))
        expect(m).toMatchObject({ status: "skipped", warnings: [NO_ITEMS_WARNING] });
    }

    // Nothing chosen: the newest run with reviews, for every widget, the report and the page's picker.
    const widget = await getWidgetData(ctxOf(db, key.actor), { pipeline_id: PIPELINE, widget_id: "total_reviews" });
    expect(widget).toMatchObject({
      execution_id: full,
      state: "ready",
      review_count: 12,
      data: { kind: "StatCard", value: 12 },
    });
    expect(await getSynthesis(ctxOf(db, key.actor), { pipeline_id: PIPELINE })).toMatchObject({
      execution_id: full,
      state: "ready",
      format: "v2",
    });
    const selection = await getExecutionSelection(ctxOf(db, key.actor), { pipeline_id: PIPELINE });
    expect(selection.current).toMatchObject({
      id: full,
      places: [{ place_key: place, name: "Full House", reviews: 12 }],
    });
    expect(selection.choices.map((c) => c.id)).toEqual([full]);

    // Chosen explicitly, an empty run says so instead of drawing nothing.
    const chosen = { pipeline_id: PIPELINE, execution_id: noneByDate };
    expect(await getWidgetData(ctxOf(db, key.actor), { ...chosen, widget_id: "total_reviews" })).toMatchObject({
      execution_id: noneByDate,
      state: "no_reviews",
      review_count: 0,
      data: null,
    });
    expect(await getSynthesis(ctxOf(db, key.actor), chosen)).toMatchObject({
      execution_id: noneByDate,
      state: "no_reviews",
      review_count: 0,
      format: null,
      report: null,
    });
    const picked = await getExecutionSelection(ctxOf(db, key.actor), chosen);
    expect(picked.current).toMatchObject({ id: noneByDate, review_count: 0 });
    expect(picked.choices.map((c) => c.id)).toEqual([full, noneByDate]);
  });

  it("an administrator's default is their own newest run with reviews, else the newest they can see", async () => {
    const key = await makeApiKey(db, ["jobs:read", "jobs:write"]);
    const place = uid("seen");
    await collectedJob(db, { apiKeyId: key.id, placeKey: place, reviews: reviewsOf(place, 6) });
    const admin = actorOf(await makeUser(db, { admin: true }));
    const emptyOwn = await ran(admin, { place_key: place, from: "2001-01-01", to: "2001-01-31" });
    const byKey = await ran(key.actor, { place_key: place });
    // No own run with reviews: the newest run with reviews the administrator sees (any caller's), never the empty one.
    const fallback = await getWidgetData(ctxOf(db, admin), { pipeline_id: PIPELINE, widget_id: "total_reviews" });
    expect(fallback.execution_id).not.toBe(emptyOwn);
    expect(fallback.review_count).not.toBe(0);
    const own = await ran(admin, { place_key: place });
    await ran(key.actor, { place_key: place }); // a newer run of someone else does not take the administrator's view
    expect(
      (await getWidgetData(ctxOf(db, admin), { pipeline_id: PIPELINE, widget_id: "total_reviews" })).execution_id,
    ).toBe(own);
    expect((await getSynthesis(ctxOf(db, admin), { pipeline_id: PIPELINE, execution_id: byKey })).execution_id).toBe(
      byKey,
    );
  });
});
