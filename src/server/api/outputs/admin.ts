import { z } from "zod";
import {
  ZDate,
  ZDateNull,
  ZRole,
  page,
  ZMeshRef,
  ZUserRef,
  ZNamedAudit,
  ZInviteRow,
  ZOwner,
  meshEnums,
} from "./common";

// Output schemas of the admin router (every mesh, session, invite and audit event).

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
