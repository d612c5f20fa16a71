// Issue 20, point 4: every number of the narrative carries the reviews behind it. A real run stores
// one label row per review read; every figure's evidence, read back through the service page by
// page, is exactly the rows its filter selects in PostgreSQL and in matchesFilter, the figure as
// written is where its link says, and another key's run is not found.
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import { matchesFilter, type EvidenceFilter } from "@/server/pipelines/review-analytics/evidence";
import { formatClaim } from "@/server/pipelines/review-analytics/synthesis/citations";
import type { ReportV2 } from "@/server/pipelines/review-analytics/synthesis/report";
import type { ReviewLabel } from "@/server/pipelines/types";
import type { Actor } from "@/server/services/actor";
import { testDb, uid } from "@/test/helpers";
import { collectedJob, ctxOf, makeApiKey, makeBatch, reviewsOf, systemCtx } from "@/test/pipeline-fixtures";
import { getEvidence } from "./evidence";
import { ZEvidenceInput } from "./schemas";
import { executePipeline } from "./execute-pipeline";
import { getSynthesis } from "./execution-views";
import { runExecution } from "./run-execution";

const db = testDb();
afterAll(() => db.$disconnect());
const PIPELINE = "review-analytics";

async function run(actor: Actor, place: string) {
  const queued = await executePipeline(
    ctxOf(db, actor),
    {
      pipeline_id: PIPELINE,
      input: { place_key: place },
    },
    { maxActivePerPrincipal: 1_000 },
  );
  expect(await runExecution(systemCtx(db), { executionId: queued.id })).toBe("succeeded");
  const report = (await getSynthesis(ctxOf(db, actor), { pipeline_id: PIPELINE, execution_id: queued.id }))
    .report as unknown as ReportV2;
  return { id: queued.id, report };
}

/** Every review id of a figure, read page by page as the evidence page does. */
async function allIds(actor: Actor, executionId: string, ref: string): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let total = -1;
  for (let pages = 0; pages < 100; pages++) {
    const page = await getEvidence(
      ctxOf(db, actor),
      ZEvidenceInput.parse({
        pipeline_id: PIPELINE,
        execution_id: executionId,
        ref,
        limit: 7,
        ...(cursor ? { cursor } : {}),
      }),
    );
    total = page.figure.reviews;
    ids.push(...page.items.map((i) => i.review_id));
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return { ids, total };
}

const asLabel = (r: Awaited<ReturnType<typeof db.pipelineReviewLabel.findMany>>[number]): ReviewLabel => ({
  review_id: r.reviewId,
  kept: r.kept,
  sentiment: r.sentiment,
  critical: r.critical,
  language: r.language,
  rating: r.rating,
  month: r.month,
  weekday: r.weekday,
  hour: r.hour,
  mentioned: r.mentioned,
  positive: r.positive,
  neutral: r.neutral,
  negative: r.negative,
  issue_critical: r.issueCritical,
  issue_high: r.issueHigh,
  phrases: r.phrases,
  origin: r.origin,
  place_key: r.placeKey,
});

describe("report evidence", () => {
  it("links every figure of the narrative to exactly the reviews it counts, within the caller's runs", async () => {
    const owner = await makeApiKey(db, ["jobs:read", "jobs:write"]);
    const place = uid("evidence");
    const batch = await makeBatch(db, owner.id);
    const all = reviewsOf(place, 140, 5);
    await collectedJob(db, {
      apiKeyId: owner.id,
      placeKey: place,
      reviews: all.slice(0, 90),
      placeName: "Casa Prueba",
      batchId: batch.id,
    });
    const first = await run(owner.actor, place);
    await collectedJob(db, {
      apiKeyId: owner.id,
      placeKey: place,
      reviews: all,
      placeName: "Casa Prueba",
      batchId: batch.id,
    });
    const { id, report } = await run(owner.actor, place);

    // One label row per review read, and every figure of the narrative is linked where it is written.
    const rows = (await db.pipelineReviewLabel.findMany({ where: { executionId: id } })).map(asLabel);
    expect(rows).toHaveLength(140);
    const evidence = report.evidence ?? {};
    const links = report.links ?? [];
    expect(Object.keys(evidence).length).toBeGreaterThan(10);
    for (const link of links) {
      const field =
        report[link.field as keyof ReportV2] ??
        (report.executive_summary as unknown as Record<string, string>)[link.field];
      const text = link.index === null ? (field as string) : (field as string[])[link.index]!;
      expect(text.slice(link.start, link.end), link.ref).toBe(formatClaim(evidence[link.ref]!));
    }
    expect(new Set(links.map((l) => l.ref))).toEqual(new Set(Object.keys(evidence)));
    expect(report.executive_summary.narrative).toContain("Casa Prueba");

    // Each figure's reviews: the same set in PostgreSQL (paged by the service) and in matchesFilter.
    for (const [ref, entry] of Object.entries(evidence)) {
      const filter = entry.filter as EvidenceFilter;
      const { ids, total } = await allIds(owner.actor, id, ref);
      const own = filter.execution_id
        ? (await db.pipelineReviewLabel.findMany({ where: { executionId: filter.execution_id } })).map(asLabel)
        : rows;
      const expected = own
        .filter((r) => matchesFilter(r, filter))
        .map((r) => r.review_id)
        .sort();
      expect(ids, ref).toEqual(expected);
      expect(total, ref).toBe(entry.reviews);
      expect(entry.review_ids, ref).toEqual(expected.slice(0, 20));
      // A count of reviews is the number of its reviews.
      if (entry.unit === "reviews") expect(entry.value, ref).toBe(entry.reviews);
    }
    // The figures of the comparison: the previous run's own reviews.
    expect(evidence["previous.reviews"]).toMatchObject({ value: 90, reviews: 90 });
    expect(evidence["previous.reviews"]?.filter).toMatchObject({ execution_id: first.id });
    expect(evidence["reviews"]).toMatchObject({ value: 140, reviews: 140 });

    // The items carry the review as stored.
    const page = await getEvidence(
      ctxOf(db, owner.actor),
      ZEvidenceInput.parse({
        pipeline_id: PIPELINE,
        execution_id: id,
        ref: "reviews",
        limit: 3,
      }),
    );
    expect(page.items).toHaveLength(3);
    expect(page.items.every((i) => i.stored && typeof i.text === "string")).toBe(true);

    // Another key, an unknown ref, a ref from the prototype: not found.
    const stranger = await makeApiKey(db, ["jobs:read"]);
    const refused = (input: { execution_id: string; ref: string }, actor: Actor) =>
      getEvidence(ctxOf(db, actor), ZEvidenceInput.parse({ pipeline_id: PIPELINE, ...input })).then(
        () => "answered",
        (e: unknown) => (e instanceof AppError ? `${e.code} ${e.message}` : String(e)),
      );
    expect(await refused({ execution_id: id, ref: "reviews" }, stranger.actor)).toBe("NOT_FOUND execution_not_found");
    expect(await refused({ execution_id: id, ref: "nope" }, owner.actor)).toBe("NOT_FOUND evidence_not_found");
    expect(await refused({ execution_id: id, ref: "constructor" }, owner.actor)).toBe("NOT_FOUND evidence_not_found");

    // Deleting the execution deletes its label rows.
    await db.pipelineExecution.delete({ where: { id } });
    expect(await db.pipelineReviewLabel.count({ where: { executionId: id } })).toBe(0);
  });
});
