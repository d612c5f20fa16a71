import { z } from "zod";
import { ZDate, ZDateNull, ZRole, ZJson, page, ZUserRef, ZNamedAudit, ZInviteRow, meshEnums } from "./common";

// Output schemas of meshes, their members, their live stream and joining in the browser.

export const ZMeshListOut = page(
  z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    ...meshEnums,
    archivedAt: ZDateNull,
    createdAt: ZDate,
    isOwner: z.boolean(),
    myRole: ZRole,
    memberCount: z.number().int(),
  }),
);
export const ZCreatedMeshOut = z.object({ id: z.string(), slug: z.string() });
export const ZMeshDetailOut = z.object({
  mesh: z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    ownerUserId: z.string(),
    ownerName: z.string().nullable(),
    ownerPubkey: z.string(),
    ...meshEnums,
    archivedAt: ZDateNull,
    createdAt: ZDate,
  }),
  isOwner: z.boolean(),
  myRole: ZRole,
  members: z.array(
    z.object({
      id: z.string(),
      userId: z.string().nullable(),
      /** The linked user's name (a browser member, or a device after mesh login); null for an anonymous peer. */
      userName: z.string().nullable(),
      displayName: z.string(),
      role: ZRole,
      joinedAt: ZDate,
      revokedAt: ZDateNull,
      peerPubkey: z.string().nullable(),
      status: z.string().nullable(),
      statusText: z.string().nullable(),
      online: z.boolean(),
      /** A live connection of it takes messages now (an MCP session, `mesh watch`); online without it: sends only. */
      canReceive: z.boolean(),
      /** The member that made this session member (one assistant session); null otherwise. */
      parentMemberId: z.string().nullable(),
      /** A device of the person's browser (the chat page; docs/mesh-api.md, "Browser devices"). */
      browserDevice: z.boolean(),
      lastSeenAt: ZDateNull,
    }),
  ),
  invites: z.array(ZInviteRow.extend({ createdBy: ZUserRef })),
});
export const ZArchivedOut = z.object({ meshId: z.string(), archivedAt: ZDate });
export const ZLeftOut = z.object({ meshId: z.string(), revokedAt: ZDate, members: z.number().int() });
export const ZMemberRemovedOut = z.object({
  meshId: z.string(),
  memberId: z.string(),
  removedAt: ZDate,
  banned: z.boolean(),
  droppedMessages: z.number().int(),
  keyEpoch: z.number().int().nullable(),
  /** Invites revoked by the removal: the one a banned member joined with, and those the person issued when asked. */
  invitesRevoked: z.number().int(),
});
export const ZRoleChangedOut = z.object({ meshId: z.string(), memberId: z.string(), role: ZRole });
export const ZUnbannedOut = z.object({ meshId: z.string(), peerPubkey: z.string(), unbanned: z.literal(true) });
export const ZUnbannedUserOut = z.object({ meshId: z.string(), userId: z.string(), unbanned: z.literal(true) });
export const ZMeshBansOut = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      /** Null for a person banned without a key (a member joined in the browser). */
      peerPubkey: z.string().nullable(),
      /** The banned person, when the ban is theirs; `my.unbanUser` lifts it with their keys. */
      userId: z.string().nullable(),
      userName: z.string().nullable(),
      displayName: z.string().nullable(),
      bannedAt: ZDate,
      bannedByName: z.string().nullable(),
    }),
  ),
});
export const ZStreamOut = z.object({
  presences: z.array(
    z.object({
      id: z.string(),
      memberId: z.string(),
      displayName: z.string(),
      status: z.string(),
      statusText: z.string().nullable(),
      connectedAt: ZDate,
      lastSeenAt: ZDate,
    }),
  ),
  envelopes: z.array(
    z.object({
      id: z.string(),
      sender: z.object({ memberId: z.string(), displayName: z.string() }),
      targetSpec: ZJson,
      priority: z.string(),
      createdAt: ZDate,
      deliveredAt: ZDateNull,
      byteSize: z.number().int(),
      ciphertextPreview: z.string().max(24),
    }),
  ),
  auditEvents: z.array(ZNamedAudit),
  members: z.array(
    z.object({
      id: z.string(),
      displayName: z.string(),
      userId: z.string().nullable(),
      userName: z.string().nullable(),
      device: z.boolean(),
      role: ZRole,
      online: z.boolean(),
      /** A live connection of it takes messages now; online without it: it only sends. */
      canReceive: z.boolean(),
      onlineSince: ZDateNull,
      lastSeenAt: ZDateNull,
      status: z.string().nullable(),
      statusText: z.string().nullable(),
      statusAt: ZDateNull,
    }),
  ),
  membersTotal: z.number().int(),
  /** People online of all the mesh's people (docs/mesh-api.md, "Who is online"), as the home page counts them. */
  people: z.object({ online: z.number().int(), total: z.number().int() }),
});
export const ZUserJoinedOut = z.object({
  meshId: z.string(),
  meshSlug: z.string(),
  memberId: z.string(),
  role: ZRole,
  displayName: z.string(),
  rejoined: z.boolean(),
});
export const ZGroupsSetOut = z.object({ meshId: z.string(), memberId: z.string(), groups: z.array(z.string()) });
