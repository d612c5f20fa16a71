import { z } from "zod";
import { ZDate, ZDateNull, ZRole } from "./common";

/** `my.chatContext`: what the chat page needs (public keys only; the root key as every invite carries it). */
export const ZChatContextOut = z.object({
  userId: z.string(),
  meshId: z.string(),
  meshName: z.string(),
  meshSlug: z.string(),
  brokerUrl: z.string(),
  rootKey: z.string(),
  keyEpoch: z.number().int(),
  membershipId: z.string(),
  role: ZRole,
  displayName: z.string(),
  devices: z.array(
    z.object({
      memberId: z.string(),
      peerPubkey: z.string(),
      boxPubkey: z.string(),
      displayName: z.string(),
      joinedAt: ZDate,
      backedUpAt: ZDateNull,
    }),
  ),
});

export const ZBrowserDeviceOut = z.object({
  meshId: z.string(),
  meshSlug: z.string(),
  memberId: z.string(),
  parentMemberId: z.string(),
  role: ZRole,
  displayName: z.string(),
  rejoined: z.boolean(),
});

export const ZKeyBackupStoredOut = z.object({ meshId: z.string(), memberId: z.string(), updatedAt: ZDate });
export const ZKeyBackupOut = ZKeyBackupStoredOut.extend({ sealed: z.string() });
