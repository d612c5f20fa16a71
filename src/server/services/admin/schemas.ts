import { z } from "zod";
import { MESH_TIERS, MESH_TRANSPORTS, MESH_VISIBILITIES, ZMeshId, ZPageInput } from "../meshes/schemas";

/** Admin lists are paginated (at most 100 rows a page), sortable on indexed columns, searchable. */
const ZSortDir = z.enum(["asc", "desc"]).default("desc");
const ZSearch = z.string().trim().max(100).optional();

/** The columns each admin list can be sorted on (the pages offer exactly these). */
export const ADMIN_MESH_SORTS = ["createdAt", "name", "slug"] as const;
export const ADMIN_SESSION_SORTS = ["connectedAt", "disconnectedAt"] as const;
export const ADMIN_INVITE_SORTS = ["createdAt", "expiresAt"] as const;

export const ZAdminMeshesInput = ZPageInput.extend({
  q: ZSearch,
  visibility: z.enum(MESH_VISIBILITIES).optional(),
  transport: z.enum(MESH_TRANSPORTS).optional(),
  tier: z.enum(MESH_TIERS).optional(),
  archived: z.enum(["yes", "no"]).optional(),
  sort: z.enum(ADMIN_MESH_SORTS).default("createdAt"),
  dir: ZSortDir,
});
export type TAdminMeshesInput = z.output<typeof ZAdminMeshesInput>;

export const ZAdminSessionsInput = ZPageInput.extend({
  q: ZSearch,
  status: z.enum(["active", "disconnected"]).optional(),
  sort: z.enum(ADMIN_SESSION_SORTS).default("connectedAt"),
  dir: ZSortDir,
});
export type TAdminSessionsInput = z.output<typeof ZAdminSessionsInput>;

export const ZAdminInvitesInput = ZPageInput.extend({
  q: ZSearch,
  revoked: z.enum(["yes", "no"]).optional(),
  expired: z.enum(["yes", "no"]).optional(),
  sort: z.enum(ADMIN_INVITE_SORTS).default("createdAt"),
  dir: ZSortDir,
});
export type TAdminInvitesInput = z.output<typeof ZAdminInvitesInput>;

export const AUDIT_TYPES = [
  "mesh_created",
  "mesh_archived",
  "invite_created",
  "invite_revoked",
  "member_joined",
  "member_left",
  "message_sent",
  "status_changed",
  "member_removed",
  "member_banned",
  "member_unbanned",
  "role_changed",
] as const;

export const ZAdminAuditInput = ZPageInput.extend({
  /** Text search over the mesh's name and slug and the actor's name, e-mail or display name. */
  q: ZSearch,
  eventType: z.enum(AUDIT_TYPES).optional(),
  meshId: ZMeshId.optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  dir: ZSortDir,
});
export type TAdminAuditInput = z.output<typeof ZAdminAuditInput>;
