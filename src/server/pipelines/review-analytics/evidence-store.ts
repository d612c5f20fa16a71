import type { Db, Prisma } from "@/server/core/db";
import type { ReviewLabel } from "../types";
import { EVIDENCE_IDS } from "./aggregate";
import { COMPARED_FILTERS, filterKey, phraseKey, type EvidenceFilter } from "./evidence";
import type { OtherRuns } from "./synthesis/citations";

// The stored side of evidence: label rows in pipeline_review_labels, and a filter as a where clause
// over them that selects exactly the rows matchesFilter() accepts (evidence.test.ts holds the two
// to each other on generated rows).

/** Rows per INSERT: 19 columns each, well under PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 2_000;

/** Stores the label rows of an execution, replacing any of an earlier attempt. */
export async function storeLabels(db: Db, executionId: string, rows: readonly ReviewLabel[]): Promise<void> {
  await db.pipelineReviewLabel.deleteMany({ where: { executionId } });
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await db.pipelineReviewLabel.createMany({
      data: rows.slice(i, i + INSERT_BATCH).map((r) => ({
        executionId,
        reviewId: r.review_id,
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
        issueCritical: r.issue_critical,
        issueHigh: r.issue_high,
        phrases: r.phrases,
        origin: r.origin,
        placeKey: r.place_key,
      })),
      skipDuplicates: true,
    });
  }
}

/** The label rows of one execution that a filter describes, as a where clause (the execution aside). */
export function labelWhere(f: EvidenceFilter): Prisma.PipelineReviewLabelWhereInput {
  const and: Prisma.PipelineReviewLabelWhereInput[] = [];
  if (f.kept !== undefined) and.push({ kept: f.kept });
  if (f.has_text !== undefined) and.push({ sentiment: f.has_text ? { not: null } : null });
  if (f.sentiment !== undefined) and.push({ sentiment: f.sentiment });
  if (f.critical !== undefined) and.push({ critical: f.critical });
  if (f.category) and.push({ [f.category.polarity ?? "mentioned"]: { has: f.category.name } });
  if (f.issue) {
    const column = f.issue.severity === "critical" ? "issueCritical" : "issueHigh";
    and.push(f.issue.category ? { [column]: { has: f.issue.category } } : { [column]: { isEmpty: false } });
  }
  if (f.phrase) and.push({ phrases: { has: phraseKey(f.phrase.category, f.phrase.phrase) } });
  if (f.language !== undefined) and.push({ language: f.language });
  if (f.rating) and.push({ rating: { gte: f.rating.min, lte: f.rating.max } });
  if (f.month !== undefined) and.push({ month: f.month });
  if (f.weekday_hour) and.push({ weekday: f.weekday_hour.weekday, hour: f.weekday_hour.hour });
  if (f.place) {
    const same: Prisma.PipelineReviewLabelWhereInput = { origin: f.place.origin, placeKey: f.place.place_key };
    // "Every place but this one": rows of no known place are not of this place either.
    and.push(f.place.other ? { NOT: same } : same);
  }
  return { AND: and };
}

/**
 * The figures of report.comparison counted in the previous run's stored rows (by filterKey): how
 * many reviews each counts and the first ids. Empty when that run stored no rows (runs from before
 * evidence): its figures then link to nothing.
 */
export async function previousEvidence(db: Db, executionId: string): Promise<OtherRuns> {
  const out: OtherRuns = {};
  const filters = Object.values(COMPARED_FILTERS).flatMap((c) => [c.filter, ...(c.of ? [c.of] : [])]);
  for (const filter of filters) {
    const where = { executionId, ...labelWhere(filter) };
    const [reviews, ids] = await Promise.all([
      db.pipelineReviewLabel.count({ where }),
      db.pipelineReviewLabel.findMany({ where, orderBy: { reviewId: "asc" }, take: EVIDENCE_IDS, select: { reviewId: true } }),
    ]);
    if (reviews === 0 && !(await db.pipelineReviewLabel.findFirst({ where: { executionId }, select: { reviewId: true } }))) return {};
    out[filterKey(filter)] = { reviews, review_ids: ids.map((r) => r.reviewId) };
  }
  return out;
}
