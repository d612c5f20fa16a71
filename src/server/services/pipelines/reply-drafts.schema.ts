import { z } from "zod";
import { ZExecutionId, ZPipelineId } from "./schemas";

/** The states of a reply draft (docs/pipelines.md, "Reply drafts"). */
export const REPLY_DRAFT_STATES = ["draft", "approved", "discarded"] as const;
export type ReplyDraftState = (typeof REPLY_DRAFT_STATES)[number];

/** Characters a reply may hold (platforms cap owner replies at a few thousand). */
export const REPLY_TEXT_MAX = 4_000;

export const ZReplyText = z
  .string()
  .trim()
  .min(1, { error: "reply_text_empty" })
  .max(REPLY_TEXT_MAX, { error: "reply_text_too_long" });

/** The reply drafts of one execution, a page at a time, optionally of one state. */
export const ZListReplyDraftsInput = z.object({
  pipeline_id: ZPipelineId,
  execution_id: ZExecutionId,
  state: z.enum(REPLY_DRAFT_STATES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TListReplyDraftsInput = z.output<typeof ZListReplyDraftsInput>;

/** One draft of one execution. */
export const ZReplyDraftInput = z.object({
  pipeline_id: ZPipelineId,
  execution_id: ZExecutionId,
  draft_id: z.uuid({ error: "invalid_draft_id" }),
});
export type TReplyDraftInput = z.infer<typeof ZReplyDraftInput>;

/** New text of a draft (only while it is a draft). */
export const ZEditReplyDraftInput = ZReplyDraftInput.extend({ text: ZReplyText });
export type TEditReplyDraftInput = z.output<typeof ZEditReplyDraftInput>;

/** Approve a draft, optionally with its final text in the same step. */
export const ZApproveReplyDraftInput = ZReplyDraftInput.extend({ text: ZReplyText.optional() });
export type TApproveReplyDraftInput = z.output<typeof ZApproveReplyDraftInput>;

const ZReplyDraftOut = z.object({
  id: z.string(),
  review_id: z.string(),
  state: z.enum(REPLY_DRAFT_STATES),
  text: z.string(),
  language: z.string(),
  fallback_from: z.string().nullable(),
  source: z.enum(["template", "llm"]),
  reasons: z.array(z.string()),
  rating: z.number().int().nullable(),
  critical: z.boolean(),
  negative: z.array(z.string()),
  positive: z.array(z.string()),
  edited: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Who last changed it: a user, an API key, or nobody since the run wrote it. */
  changed_by: z.enum(["user", "api_key"]).nullable(),
});
export { ZReplyDraftOut };
export type TReplyDraftOut = z.infer<typeof ZReplyDraftOut>;

/** A page of drafts with the review each answers, and how many drafts the run has in each state. */
export const ZReplyDraftPageOut = z.object({
  execution_id: z.string(),
  items: z.array(
    ZReplyDraftOut.extend({
      review: z.object({
        author: z.string().nullable(),
        published_at: z.string().nullable(),
        text: z.string().nullable(),
        language: z.string().nullable(),
        /** false: the review is no longer stored. */
        stored: z.boolean(),
      }),
    }),
  ),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  counts: z.object({ draft: z.number().int(), approved: z.number().int(), discarded: z.number().int() }),
});
export type TReplyDraftPageOut = z.infer<typeof ZReplyDraftPageOut>;
