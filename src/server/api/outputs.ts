import { z } from "zod";
import { MEMBER_ROLES, MESH_TIERS, MESH_TRANSPORTS, MESH_VISIBILITIES } from "@/server/services/meshes/schemas";
import { AUDIT_TYPES } from "@/server/services/admin/schemas";
import { PREVIEW_REASONS } from "@/server/services/invites/invite-refusal";

// Output schemas of the API: they document the REST answers (OpenAPI) and, because zod strips keys
// it does not know, they are also a whitelist: a field added to a query cannot leak by accident.

/** A timestamp: a Date in tRPC (superjson), an ISO-8601 string in REST. */
export const ZDate = z.date().meta({ override: { type: "string", format: "date-time" } });
const ZDateNull = ZDate.nullable();
const ZRole = z.enum(MEMBER_ROLES);
const ZJson = z.unknown();
const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
const ZInviteState = z.enum(["valid", "expired", "revoked", "exhausted"]);
const ZMeshRef = z.object({ id: z.string(), slug: z.string(), name: z.string() });
const ZUserRef = z.object({ id: z.string(), name: z.string().nullable() });
const meshEnums = {
  visibility: z.enum(MESH_VISIBILITIES),
  transport: z.enum(MESH_TRANSPORTS),
  tier: z.enum(MESH_TIERS),
};
const ZAudit = z.object({
  id: z.string(),
  eventType: z.enum(AUDIT_TYPES),
  actorUserId: z.string().nullable(),
  actorMemberId: z.string().nullable(),
  metadata: ZJson,
  createdAt: ZDate,
});
/** An audit event with the names people read (the actor's, and the member it concerns). */
const ZNamedAudit = ZAudit.extend({ actorName: z.string().nullable(), targetName: z.string().nullable() });
const ZInviteRow = z.object({
  id: z.string(),
  role: ZRole,
  expiresAt: ZDate,
  maxUses: z.number().int().nullable(),
  usedCount: z.number().int(),
  revokedAt: ZDateNull,
  createdAt: ZDate,
  state: ZInviteState,
});

export const ZProfileOut = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  image: z.string().nullable(),
  createdAt: ZDate,
  isAdmin: z.boolean(),
});
export const ZProfileUpdatedOut = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});
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
export const ZDeviceLoginStartOut = z.object({
  deviceCode: z.string(),
  userCode: z.string(),
  verificationPath: z.string(),
  expiresIn: z.number().int(),
  interval: z.number().int(),
});
export const ZDeviceLoginPollOut = z.discriminatedUnion("status", [
  z.object({ status: z.enum(["pending", "slow_down", "denied", "expired"]) }),
  z.object({
    status: z.literal("approved"),
    token: z.string(),
    user: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
  }),
]);
export const ZDeviceWhoamiOut = z.object({ name: z.string().nullable(), email: z.string().nullable() });
export const ZDeviceLogoutOut = z.object({ loggedOut: z.literal(true) });
export const ZDeviceLoginOut = z.object({
  userCode: z.string(),
  clientName: z.string(),
  createdAt: ZDate,
  expiresAt: ZDate,
});
export const ZDeviceDecidedOut = z.object({ userCode: z.string(), clientName: z.string(), approved: z.boolean() });
export const ZUserJoinedOut = z.object({
  meshId: z.string(),
  meshSlug: z.string(),
  memberId: z.string(),
  role: ZRole,
  displayName: z.string(),
  rejoined: z.boolean(),
});
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
      lastSeenAt: ZDateNull,
    }),
  ),
  invites: z.array(ZInviteRow.extend({ createdBy: ZUserRef })),
});
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
export const ZArchivedOut = z.object({ meshId: z.string(), archivedAt: ZDate });
export const ZLeftOut = z.object({ meshId: z.string(), revokedAt: ZDate, members: z.number().int() });
export const ZMemberRemovedOut = z.object({
  meshId: z.string(),
  memberId: z.string(),
  removedAt: ZDate,
  banned: z.boolean(),
  droppedMessages: z.number().int(),
  keyEpoch: z.number().int().nullable(),
});
export const ZRoleChangedOut = z.object({ meshId: z.string(), memberId: z.string(), role: ZRole });
export const ZUnbannedOut = z.object({ meshId: z.string(), peerPubkey: z.string(), unbanned: z.literal(true) });
export const ZMeshBansOut = z.object({
  items: z.array(
    z.object({
      peerPubkey: z.string(),
      displayName: z.string().nullable(),
      bannedAt: ZDate,
      bannedByName: z.string().nullable(),
    }),
  ),
});
export const ZMyInvitesOut = z.array(
  ZInviteRow.extend({
    token: z.string(),
    inviteLink: z.string(),
    joinUrl: z.string(),
    mesh: ZMeshRef.extend({ archivedAt: ZDateNull }),
  }),
);
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
      onlineSince: ZDateNull,
      lastSeenAt: ZDateNull,
      status: z.string().nullable(),
      statusText: z.string().nullable(),
      statusAt: ZDateNull,
    }),
  ),
  membersTotal: z.number().int(),
});
const ZMeshExport = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  ...meshEnums,
  archivedAt: ZDateNull,
  createdAt: ZDate,
});
export const ZExportOut = z.object({
  exportedAt: z.string(),
  profile: z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable(), createdAt: ZDate }),
  meshesOwned: z.array(ZMeshExport),
  meshesJoined: z.array(
    ZMeshExport.extend({
      membership: z.object({ role: ZRole, displayName: z.string(), joinedAt: ZDate, revokedAt: ZDateNull }),
      devices: z.array(
        z.object({
          role: ZRole,
          displayName: z.string(),
          joinedAt: ZDate,
          revokedAt: ZDateNull,
          peerPubkey: z.string(),
        }),
      ),
    }),
  ),
  invitesIssued: z.array(
    z.object({
      id: z.string(),
      meshId: z.string(),
      role: ZRole,
      expiresAt: ZDate,
      maxUses: z.number().int().nullable(),
      usedCount: z.number().int(),
      revokedAt: ZDateNull,
      createdAt: ZDate,
    }),
  ),
  auditEvents: z.array(ZAudit.extend({ meshId: z.string() })),
});

const ZOwner = z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() });
export const ZAdminMeshesOut = page(
  z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    ...meshEnums,
    archivedAt: ZDateNull,
    createdAt: ZDate,
    owner: ZOwner,
    memberCount: z.number().int(),
  }),
);
export const ZAdminMeshOut = z.object({
  mesh: z
    .object({
      id: z.string(),
      slug: z.string(),
      name: z.string(),
      ownerPubkey: z.string(),
      ...meshEnums,
      archivedAt: ZDateNull,
      createdAt: ZDate,
      owner: ZOwner,
    })
    .nullable(),
  members: z.array(
    z.object({
      id: z.string(),
      userId: z.string().nullable(),
      displayName: z.string(),
      role: ZRole,
      joinedAt: ZDate,
      revokedAt: ZDateNull,
    }),
  ),
  presences: z.array(
    z.object({
      id: z.string(),
      memberId: z.string(),
      nodeId: z.string(),
      status: z.string(),
      connectedAt: ZDate,
      lastSeenAt: ZDate,
      disconnectedAt: ZDateNull,
    }),
  ),
  invites: z.array(ZInviteRow.extend({ createdBy: ZUserRef })),
  auditEvents: z.array(ZNamedAudit),
});
export const ZAdminSessionsOut = page(
  z.object({
    id: z.string(),
    nodeId: z.string(),
    status: z.string(),
    statusText: z.string().nullable(),
    connectedAt: ZDate,
    lastSeenAt: ZDate,
    disconnectedAt: ZDateNull,
    member: z.object({ id: z.string(), displayName: z.string(), role: ZRole }),
    mesh: ZMeshRef,
  }),
);
export const ZAdminInvitesOut = page(ZInviteRow.extend({ mesh: ZMeshRef, createdBy: ZOwner }));
export const ZAdminAuditOut = page(ZNamedAudit.extend({ mesh: ZMeshRef }));
export const ZAdminSummaryOut = z.object({
  meshes: z.number().int(),
  activeMeshes: z.number().int(),
  totalPresences: z.number().int(),
  activePresences: z.number().int(),
  messages24h: z.number().int(),
});

export const ZStatsOut = z.object({
  messagesRouted: z.number().int(),
  meshesCreated: z.number().int(),
  peersActive: z.number().int(),
  lastUpdated: ZDate,
});
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
