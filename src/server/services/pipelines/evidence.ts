import { AppError } from "@/server/core/errors";
import { ZEvidenceFilter, type EvidenceFilter } from "@/server/pipelines/review-analytics/evidence";
import { labelWhere } from "@/server/pipelines/review-analytics/evidence-store";
import type { EvidenceEntry } from "@/server/pipelines/review-analytics/synthesis/citations";
import type { ServiceContext } from "@/server/services/context";
import { assertPipelineAccess, visibleExecutions } from "./access";
import type { TEvidenceInput } from "./schemas";
import { isUuid } from "@/server/core/ids";

/** Characters of a review's text an evidence page shows. */
const TEXT_CHARS = 2_000;

/**
 * GET .../executions/{execution_id}/evidence/{ref}: one figure of a visible execution's report and
 * the reviews it counts, by review id. The figure's filter is the report's own (never the caller's);
 * a figure of the previous run reads that run's rows, and only when the caller may see that run too.
 * Another caller's execution, an unknown ref and a report without evidence are all 404.
 */
export async function getEvidence({ db, actor }: ServiceContext, input: TEvidenceInput) {
  assertPipelineAccess(actor, "read");
  const visible = visibleExecutions(actor);
  const row = await db.pipelineExecution.findFirst({
    where: { id: input.execution_id, pipelineId: input.pipeline_id, ...visible },
    select: { id: true, synthesis: true },
  });
  if (!row) throw new AppError("NOT_FOUND", "execution_not_found");
  const evidence = (row.synthesis as { evidence?: Record<string, EvidenceEntry> } | null)?.evidence;
  const entry = evidence && Object.hasOwn(evidence, input.ref) ? evidence[input.ref] : undefined;
  const filter = entry ? ZEvidenceFilter.safeParse(entry.filter) : null;
  if (!entry || !filter?.success) throw new AppError("NOT_FOUND", "evidence_not_found");
  const f: EvidenceFilter = filter.data;
  const runId = f.execution_id ?? row.id;
  if (f.execution_id) {
    const other = await db.pipelineExecution.findFirst({
      where: { id: f.execution_id, ...visible },
      select: { id: true },
    });
    if (!other) throw new AppError("NOT_FOUND", "evidence_not_found");
  }
  const where = { executionId: runId, ...labelWhere(f) };
  const [total, labels] = await Promise.all([
    db.pipelineReviewLabel.count({ where }),
    db.pipelineReviewLabel.findMany({
      where: input.cursor ? { AND: [where, { reviewId: { gt: input.cursor } }] } : where,
      orderBy: { reviewId: "asc" },
      take: input.limit + 1,
    }),
  ]);
  const page = labels.slice(0, input.limit);
  const ids = page.map((l) => l.reviewId).filter(isUuid);
  const reviews = ids.length
    ? await db.review.findMany({
        where: { id: { in: ids } },
        select: { id: true, author: true, rating: true, text: true, publishedAt: true },
      })
    : [];
  const byId = new Map(reviews.map((r) => [r.id, r]));
  return {
    execution_id: row.id,
    ref: input.ref,
    figure: {
      value: entry.value,
      unit: entry.unit,
      text: entry.text ?? null,
      reviews: total,
      of_reviews: entry.of?.reviews ?? null,
      previous_run: f.execution_id ?? null,
    },
    filter: f,
    items: page.map((l) => {
      const r = byId.get(l.reviewId);
      return {
        review_id: l.reviewId,
        author: r?.author ?? null,
        rating: r?.rating ?? l.rating,
        published_at: r?.publishedAt?.toISOString() ?? null,
        text: r?.text ? r.text.slice(0, TEXT_CHARS) : null,
        /** false: the review is no longer stored (pruned since the run). */
        stored: r !== undefined,
        sentiment: l.sentiment,
        critical: l.critical,
        language: l.language,
        categories: l.mentioned,
        negative_categories: l.negative,
        origin: l.origin,
        place_key: l.placeKey,
      };
    }),
    next_cursor: labels.length > input.limit ? (page[page.length - 1]?.reviewId ?? null) : null,
  };
}
