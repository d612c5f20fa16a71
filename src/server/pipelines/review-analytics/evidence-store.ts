import type { Db, Prisma } from "@/server/core/db";
import type { ReviewLabel } from "../types";
import { EVIDENCE_IDS } from "./aggregate";
import { COMPARED_FILTERS, filterKey, phraseKey, topicKey, type EvidenceFilter } from "./evidence";
import type { OtherRuns } from "./synthesis/citations";

// The stored side of evidence: label rows in pipeline_review_labels, and a filter as a where clause
// over them that selects exactly the rows matchesFilter() accepts (evidence.test.ts holds the two
// to each other on generated rows).

/** Rows per INSERT: one JSON parameter of about 3 MB. */
const INSERT_BATCH = 10_000;

/**
 * Stores the label rows of an execution, replacing any of an earlier attempt: one INSERT … SELECT
 * from jsonb_to_recordset per 10,000 rows (the JSON arrays become text[] columns). Prisma's createMany
 * took 49 s for 100,000 rows here; this takes a few seconds.
 */
export async function storeLabels(db: Db, executionId: string, rows: readonly ReviewLabel[]): Promise<void> {
  await db.pipelineReviewLabel.deleteMany({ where: { executionId } });
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const batch = JSON.stringify(rows.slice(i, i + INSERT_BATCH));
    await db.$executeRaw`
      INSERT INTO pipeline_review_labels (execution_id, review_id, kept, sentiment, critical, language, rating, month, weekday, hour,
        mentioned, positive, neutral, negative, issue_critical, issue_high, phrases, origin, place_key)
      SELECT ${executionId}::uuid, r.review_id, r.kept, r.sentiment, r.critical, r.language, r.rating, r.month, r.weekday, r.hour,
        r.mentioned, r.positive, r.neutral, r.negative, r.issue_critical, r.issue_high, r.phrases, r.origin, r.place_key
      FROM jsonb_to_recordset(${batch}::jsonb) AS r(review_id text, kept boolean, sentiment text, critical boolean, language text, rating int,
        month text, weekday int, hour int, mentioned text[], positive text[], neutral text[], negative text[], issue_critical text[],
        issue_high text[], phrases text[], origin text, place_key text)
      ON CONFLICT DO NOTHING`;
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
  if (f.topic) and.push({ phrases: { has: topicKey(f.topic.topic) } });
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
  if (!(await db.pipelineReviewLabel.findFirst({ where: { executionId }, select: { reviewId: true } }))) return {};
  const out: OtherRuns = {};
  const filters = Object.values(COMPARED_FILTERS).flatMap((c) => [c.filter, ...(c.of ? [c.of] : [])]);
  for (const filter of filters) {
    const where = { executionId, ...labelWhere(filter) };
    const [reviews, ids] = await Promise.all([
      db.pipelineReviewLabel.count({ where }),
      db.pipelineReviewLabel.findMany({
        where,
        orderBy: { reviewId: "asc" },
        take: EVIDENCE_IDS,
        select: { reviewId: true },
      }),
    ]);
    out[filterKey(filter)] = { reviews, review_ids: ids.map((r) => r.reviewId) };
  }
  return out;
}
