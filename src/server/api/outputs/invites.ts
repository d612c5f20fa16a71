import { z } from "zod";
import { PREVIEW_REASONS } from "@/server/services/invites/invite-refusal";
import { ZDate, ZDateNull, ZMeshRef, ZUserRef, ZInviteRow } from "./common";

// Output schemas of invites: issuing, listing, revoking, short codes and previews.

export const ZCreatedInviteOut = z.object({
  inviteId: z.string(),
  expiresAt: ZDate,
  inviteLink: z.string(),
  joinUrl: z.string(),
  shortUrl: z.string(),
  token: z.string(),
});
export const ZMeshInvitesOut = z.object({
  items: z.array(
    ZInviteRow.omit({ state: true }).extend({
      createdBy: ZUserRef,
      inviteLink: z.string(),
      joinUrl: z.string(),
      shortUrl: z.string().nullable(),
    }),
  ),
  more: z.boolean(),
});
export const ZInviteCodeOut = z.object({ token: z.string(), inviteLink: z.string(), joinUrl: z.string() });
export const ZRevokedInviteOut = z.object({ inviteId: z.string(), revokedAt: ZDate });
export const ZMyInvitesOut = z.array(
  ZInviteRow.extend({
    token: z.string(),
    inviteLink: z.string(),
    joinUrl: z.string(),
    mesh: ZMeshRef.extend({ archivedAt: ZDateNull }),
  }),
);
const previewDetails = {
  meshName: z.string().nullable(),
  meshSlug: z.string().nullable(),
  inviterName: z.string().nullable(),
  role: z.string().nullable(),
  memberCount: z.number().int().nullable(),
  expiresAt: ZDateNull,
};
export const ZPreviewOut = z.union([
  z.object({ valid: z.literal(true), ...previewDetails }),
  z.object({ valid: z.literal(false), reason: z.enum(PREVIEW_REASONS), ...previewDetails }),
]);
