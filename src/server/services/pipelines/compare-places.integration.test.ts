// Issue 46, point 6: a run over several places (place_keys) shows each category's score per place
// side by side: the "Places compared" widget and the report's "How the places compare", whose
// figures are exactly the stored label rows of each place; a run over one place has nothing to
// compare; place_keys is bounded and checked like place_key.
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import { MAX_PLACE_KEYS } from "@/server/pipelines/review-analytics/input";
import type { PlacesComparedData } from "@/server/pipelines/review-analytics/place-comparison";
import type { ReportV2 } from "@/server/pipelines/review-analytics/synthesis/report";
import { formatClaim } from "@/server/pipelines/review-analytics/synthesis/citations";
import { NARRATIVE_LANGUAGES, REPORT_LANGUAGES } from "@/server/pipelines/review-analytics/synthesis/lang";
import { testDb, uid } from "@/test/helpers";
import { rejectionOf } from "@/test/rejection";
import { collectedJob, ctxOf, makeApiKey, reviewsOf, systemCtx, TEST_ORIGIN } from "@/test/pipeline-fixtures";
import { getEvidence } from "./evidence";
import { executePipeline } from "./execute-pipeline";
import { getSynthesis, getWidgetData } from "./execution-views";
import { runExecution } from "./run-execution";
import { ZEvidenceInput } from "./schemas";

const db = testDb();
afterAll(() => db.$disconnect());
const PIPELINE = "review-analytics";

async function keyWithPlaces(sizes: number[]) {
  const key = await makeApiKey(db, ["jobs:read", "jobs:write"]);
  const places = sizes.map((n, i) => ({ key: uid(`place${i}`), name: `Place ${"ABC"[i] ?? i}`, n }));
  for (const [i, p] of places.entries())
    await collectedJob(db, {
      apiKeyId: key.id,
      placeKey: p.key,
      placeName: p.name,
      reviews: reviewsOf(p.key, p.n, 11 + i),
    });
  return { ...key, places };
}

async function runOver(actor: Parameters<typeof ctxOf>[1], input: Record<string, unknown>) {
  const queued = await executePipeline(
    ctxOf(db, actor),
    { pipeline_id: PIPELINE, input },
    { maxActivePerPrincipal: 1_000 },
  );
  expect(await runExecution(systemCtx(db), { executionId: queued.id })).toBe("succeeded");
  const ctx = ctxOf(db, actor);
  const widget = await getWidgetData(ctx, {
    pipeline_id: PIPELINE,
    widget_id: "places_compared",
    execution_id: queued.id,
  });
  const synthesis = await getSynthesis(ctx, { pipeline_id: PIPELINE, execution_id: queued.id });
  return { id: queued.id, widget, report: synthesis.report as unknown as ReportV2 };
}

describe("comparing places", () => {
  it("a run over three places: the widget's scores and the report's section, each figure its place's reviews", async () => {
    const key = await keyWithPlaces([60, 45, 30]);
    const { id, widget, report } = await runOver(key.actor, { place_keys: key.places.map((p) => p.key) });
    expect(widget).toMatchObject({ kind: "BarChart", state: "ready" });
    const data = widget.data as unknown as PlacesComparedData;
    // The places, biggest first, by the names their jobs recorded, each with its reviews.
    expect(data.places.map((p) => [p.name, p.reviews, p.series])).toEqual([
      ["Place A", 60, "p0"],
      ["Place B", 45, "p1"],
      ["Place C", 30, "p2"],
    ]);
    expect(data.series).toEqual(["p0", "p1", "p2"]);
    expect(data.rows.length).toBeGreaterThan(0);
    expect(data.rows.length).toBe(data.categories.length);
    // Each cell is the stored label rows of its place and category.
    const labels = await db.pipelineReviewLabel.findMany({ where: { executionId: id } });
    for (const c of data.categories)
      for (const [i, cell] of c.cells.entries()) {
        const mine = labels.filter((l) => l.placeKey === data.places[i]!.place_key && l.kept);
        const mentioned = mine.filter((l) => l.mentioned.includes(c.category));
        expect(cell.mentions).toBe(mentioned.length);
        expect(cell.negative).toBe(mine.filter((l) => l.negative.includes(c.category)).length);
        const row = data.rows.find((r) => r.category === c.category)!;
        expect(row[`p${i}`]).toBe(cell.score ?? undefined);
      }

    expect(report.place_comparison?.places).toHaveLength(3);
    for (const l of REPORT_LANGUAGES) {
      const n = report.narratives![l]!;
      expect(n.places_compared!.length).toBeGreaterThanOrEqual(3);
      expect(n.places_compared![0]).toContain("Place A");
      for (const link of n.places_compared_links!)
        expect(n.places_compared![link.index]!.slice(link.start, link.end)).toBe(
          formatClaim(report.evidence![link.ref]!, NARRATIVE_LANGUAGES[l].numbers),
        );
    }
    expect(report.narratives!.en!.places_compared![0]).toBe(
      "Compared: " +
        data.places
          .map((p, i, all) => {
            const text = `${p.name} (${p.reviews} reviews${p.average_rating === null ? "" : `, ${p.average_rating} stars`})`;
            return i === all.length - 1 ? `and ${text}` : text;
          })
          .join(", ")
          .replace(", and", " and") +
        ".",
    );
    // A score's evidence, read back through the service: the mentions of the category at the place.
    const scoreRef = report.narratives!.en!.places_compared_links!.find((x) => x.ref.endsWith(".score"))!.ref;
    const [, index, category] = scoreRef.split(".");
    const page = await getEvidence(
      ctxOf(db, key.actor),
      ZEvidenceInput.parse({ pipeline_id: PIPELINE, execution_id: id, ref: scoreRef, limit: 100 }),
    );
    const cell = data.categories.find((c) => c.category === category)!.cells[Number(index)]!;
    expect(page.figure).toMatchObject({ value: cell.score, unit: "points", reviews: cell.mentions });
    expect(page.items.every((r) => r.place_key === data.places[Number(index)]!.place_key)).toBe(true);
  });

  it("a run over one place says a comparison needs two: no bars, no section", async () => {
    const key = await keyWithPlaces([20]);
    const { widget, report } = await runOver(key.actor, { place_keys: [key.places[0]!.key] });
    expect(widget.state).toBe("ready");
    expect(widget.data).toMatchObject({ rows: [], categories: [], places: [{ name: "Place A", reviews: 20 }] });
    expect(report.place_comparison).toBeUndefined();
    for (const l of REPORT_LANGUAGES) expect(report.narratives![l]!.places_compared).toBeUndefined();
  });

  it("place_keys is bounded, exclusive with place_key, and names only places the caller can read", async () => {
    const key = await keyWithPlaces([5]);
    const other = await keyWithPlaces([5]);
    const execute = (input: Record<string, unknown>) =>
      executePipeline(ctxOf(db, key.actor), { pipeline_id: PIPELINE, input }, { maxActivePerPrincipal: 1_000 });
    const issues = async (input: Record<string, unknown>) =>
      ((await rejectionOf(execute(input), AppError)).details as { issues: { path: string; message: string }[] }).issues;
    const many = Array.from({ length: MAX_PLACE_KEYS + 1 }, (_, i) => `p${i}`);
    expect((await issues({ place_keys: many }))[0]?.path).toBe("place_keys");
    expect(await issues({ place_key: "a", place_keys: ["b"] })).toContainEqual({
      path: "place_keys",
      message: "place_key_or_place_keys",
    });
    expect(await issues({ place_keys: ["a", "a"] })).toContainEqual({
      path: "place_keys",
      message: "duplicate_place_keys",
    });
    // Another key's place answers as a place that does not exist, and names the refused keys.
    const foreign = other.places[0]!.key;
    expect(await rejectionOf(execute({ place_keys: [key.places[0]!.key, foreign] }), AppError)).toMatchObject({
      code: "NOT_FOUND",
      message: "place_not_found",
      details: { place_keys: [foreign] },
    });
    expect(
      await rejectionOf(execute({ place_keys: [key.places[0]!.key], origin: "https://elsewhere.test" }), AppError),
    ).toMatchObject({
      message: "place_not_found",
    });
    await expect(execute({ place_keys: [key.places[0]!.key], origin: TEST_ORIGIN })).resolves.toMatchObject({
      status: "queued",
    });
  });
});
