import type { Prisma } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { isUuid } from "@/server/core/ids";
import { storeReplyDrafts } from "@/server/pipelines/review-analytics/replies/store";
import type { Actor } from "@/server/services/actor";
import type { ServiceContext } from "@/server/services/context";
import { assertPipelineAccess, visibleExecutions } from "./access";
import {
  REPLY_DRAFT_STATES,
  type ReplyDraftState,
  type TApproveReplyDraftInput,
  type TEditReplyDraftInput,
  type TListReplyDraftsInput,
  type TReplyDraftInput,
  type TReplyDraftOut,
  type TReplyDraftPageOut,
} from "./reply-drafts.schema";

/** Characters of a review's text the replies page shows beside its draft. */
const REVIEW_CHARS = 2_000;

type DraftRow = Prisma.ReplyDraftGetPayload<object>;

function serialize(d: DraftRow): TReplyDraftOut {
  return {
    id: d.id,
    review_id: d.reviewId,
    state: d.state as ReplyDraftState,
    text: d.text,
    language: d.language,
    fallback_from: d.fallbackFrom,
    source: d.source === "llm" ? "llm" : "template",
    reasons: d.reasons,
    rating: d.rating,
    critical: d.critical,
    negative: d.negative,
    positive: d.positive,
    edited: d.edited,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
    changed_by: d.changedByUserId ? "user" : d.changedByApiKeyId ? "api_key" : null,
  };
}

/** The drafts an actor may see: those of the executions it may see (the access rule inside every query). */
const visibleDrafts = (
  actor: Actor,
  input: { pipeline_id: string; execution_id: string },
): Prisma.ReplyDraftWhereInput => ({
  executionId: input.execution_id,
  execution: { pipelineId: input.pipeline_id, ...visibleExecutions(actor) },
});

/** Who changed a draft, stored with it. */
function changedBy(actor: Actor): { changedByUserId: string | null; changedByApiKeyId: string | null } {
  if (actor.kind === "apiKey") return { changedByUserId: null, changedByApiKeyId: actor.apiKeyId };
  if (actor.kind === "user" || actor.kind === "administrator")
    return { changedByUserId: actor.userId, changedByApiKeyId: null };
  return { changedByUserId: null, changedByApiKeyId: null };
}

/**
 * GET .../executions/{execution_id}/replies: the reply drafts of a visible execution, reviews that need
 * an answer first by health and safety, then by stars (lowest first), a page at a time, optionally of
 * one state, with the review each answers. A succeeded run with none yet (runs from before drafts, or
 * whose draft step failed) gets them written here first. Another caller's execution is 404.
 */
export async function listReplyDrafts(
  { db, actor, now }: ServiceContext,
  input: TListReplyDraftsInput,
): Promise<TReplyDraftPageOut> {
  assertPipelineAccess(actor, "read");
  const execution = await db.pipelineExecution.findFirst({
    where: { id: input.execution_id, pipelineId: input.pipeline_id, ...visibleExecutions(actor) },
    select: { id: true, status: true, _count: { select: { replyDrafts: true } } },
  });
  if (!execution) throw new AppError("NOT_FOUND", "execution_not_found");
  if (execution.status === "succeeded" && execution._count.replyDrafts === 0)
    await storeReplyDrafts(db, execution.id, now());
  const all = visibleDrafts(actor, input);
  const where: Prisma.ReplyDraftWhereInput = input.state ? { ...all, state: input.state } : all;
  const [total, rows, byState] = await Promise.all([
    db.replyDraft.count({ where }),
    db.replyDraft.findMany({
      where,
      orderBy: [{ critical: "desc" }, { rating: { sort: "asc", nulls: "last" } }, { reviewId: "asc" }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    db.replyDraft.groupBy({ by: ["state"], where: all, _count: { _all: true } }),
  ]);
  const ids = rows.map((r) => r.reviewId).filter(isUuid);
  const reviews = ids.length
    ? await db.review.findMany({
        where: { id: { in: ids } },
        select: { id: true, author: true, publishedAt: true, text: true, language: true },
      })
    : [];
  const byId = new Map(reviews.map((r) => [r.id, r]));
  const counts = Object.fromEntries(REPLY_DRAFT_STATES.map((s) => [s, 0])) as Record<ReplyDraftState, number>;
  for (const g of byState)
    if ((REPLY_DRAFT_STATES as readonly string[]).includes(g.state)) counts[g.state as ReplyDraftState] = g._count._all;
  return {
    execution_id: execution.id,
    items: rows.map((d) => {
      const r = byId.get(d.reviewId);
      return {
        ...serialize(d),
        review: {
          author: r?.author ?? null,
          published_at: r?.publishedAt?.toISOString() ?? null,
          text: r?.text ? r.text.slice(0, REVIEW_CHARS) : null,
          language: r?.language ?? null,
          stored: r !== undefined,
        },
      };
    }),
    total,
    page: input.page,
    pageSize: input.pageSize,
    counts,
  };
}

/**
 * Moves one visible draft from one of `from` to `data`'s state in one guarded update (the access rule
 * and the state in the where clause); then 404 when the caller cannot see the draft, 409
 * `reply_draft_state` when it is in another state.
 */
async function transition(
  { db, actor, now }: ServiceContext,
  input: TReplyDraftInput,
  from: readonly ReplyDraftState[],
  data: Prisma.ReplyDraftUpdateManyMutationInput,
): Promise<TReplyDraftOut> {
  assertPipelineAccess(actor, "execute");
  const where: Prisma.ReplyDraftWhereInput = { id: input.draft_id, ...visibleDrafts(actor, input) };
  const updated = await db.replyDraft.updateMany({
    where: { ...where, state: { in: [...from] } },
    data: { ...data, ...changedBy(actor), updatedAt: now() },
  });
  const row = await db.replyDraft.findFirst({ where });
  if (!row) throw new AppError("NOT_FOUND", "reply_draft_not_found");
  if (updated.count === 0) throw new AppError("CONFLICT", "reply_draft_state", { state: row.state });
  return serialize(row);
}

/** POST .../replies/{draft_id}: new text of a draft, only while it is a draft (409 `reply_draft_state` otherwise). */
export async function editReplyDraft(ctx: ServiceContext, input: TEditReplyDraftInput): Promise<TReplyDraftOut> {
  return transition(ctx, input, ["draft"], { text: input.text, edited: true });
}

/** POST .../replies/{draft_id}/approve: draft → approved, with its final text when given. */
export async function approveReplyDraft(ctx: ServiceContext, input: TApproveReplyDraftInput): Promise<TReplyDraftOut> {
  return transition(ctx, input, ["draft"], {
    state: "approved",
    ...(input.text !== undefined ? { text: input.text, edited: true } : {}),
  });
}

/** POST .../replies/{draft_id}/discard: draft → discarded (the review will not be answered from here). */
export async function discardReplyDraft(ctx: ServiceContext, input: TReplyDraftInput): Promise<TReplyDraftOut> {
  return transition(ctx, input, ["draft"], { state: "discarded" });
}

/** POST .../replies/{draft_id}/reopen: approved or discarded → draft again, to change the text or the decision. */
export async function reopenReplyDraft(ctx: ServiceContext, input: TReplyDraftInput): Promise<TReplyDraftOut> {
  return transition(ctx, input, ["approved", "discarded"], { state: "draft" });
}
