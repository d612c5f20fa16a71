import { z } from "zod";
import { ZMeshId } from "../meshes/schemas";

/** Input of `my.reviewBot`, `my.addReviewBot` and `my.removeReviewBot`: the mesh. */
export const ZReviewBotMeshInput = z.object({ meshId: ZMeshId });
export type TReviewBotMeshInput = z.output<typeof ZReviewBotMeshInput>;

/** Input of `listMyReviewBots`: the person whose meshes (owned or administered) are listed. */
export const ZListMyReviewBotsInput = z.object({ userId: z.string().min(1).max(200) });
export type TListMyReviewBotsInput = z.output<typeof ZListMyReviewBotsInput>;

/** A group name as `@group` names it (join/groups.ts's rule), given without the `@`. */
export const ZBotGroup = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, { error: "group_invalid" });

/** Longest alert text the bot sends (far below the broker's frame cap once sealed for a group). */
export const REVIEW_BOT_MAX_TEXT = 4_000;

/** Input of `sendAsReviewBot` (the worker's alert delivery). */
export const ZSendAsReviewBotInput = z.object({
  botId: z.uuid(),
  group: ZBotGroup,
  text: z.string().min(1).max(REVIEW_BOT_MAX_TEXT),
  /** The caller's idempotency key (an alert delivery's id): a send again with it is not shown twice. */
  dedupeId: z.string().min(1).max(200),
  /** How long the whole send may take, connecting included (default 15 s). */
  timeoutMs: z.number().int().min(1_000).max(120_000).optional(),
});
export type TSendAsReviewBotInput = z.input<typeof ZSendAsReviewBotInput>;

/** A mesh's live review bot as the mesh page shows it (public key only), or null. */
export const ZReviewBotOut = z
  .object({
    botId: z.string(),
    memberId: z.string(),
    displayName: z.string(),
    peerPubkey: z.string(),
    createdAt: z.date(),
    online: z.boolean(),
  })
  .nullable();

/** `my.reviewBot`: the bot, and whether the signed-in person may add or remove it. */
export const ZMeshReviewBotOut = z.object({ bot: ZReviewBotOut, canManage: z.boolean() });

/** `my.addReviewBot`. */
export const ZReviewBotAddedOut = z.object({
  botId: z.string(),
  memberId: z.string(),
  displayName: z.string(),
  peerPubkey: z.string(),
});

/** `my.removeReviewBot`. */
export const ZReviewBotRemovedOut = z.object({ botId: z.string(), memberId: z.string(), removed: z.boolean() });

/** One mesh's live bot for the alert-rule form: the groups its live members use. */
export const ZMyReviewBotOut = z.object({
  botId: z.string(),
  meshId: z.string(),
  meshName: z.string(),
  groups: z.array(z.string()),
});
