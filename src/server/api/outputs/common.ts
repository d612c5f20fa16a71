import { z } from "zod";
import { MEMBER_ROLES, MESH_TIERS, MESH_TRANSPORTS, MESH_VISIBILITIES } from "@/server/services/meshes/schemas";
import { AUDIT_TYPES } from "@/server/services/audit/audit-types";

// Pieces the output schemas of every domain share. Output schemas document the REST answers (OpenAPI)
// and, because zod strips keys it does not know, are whitelists: a field added to a query cannot leak.

/** A timestamp: a Date in tRPC (superjson), an ISO-8601 string in REST. */
export const ZDate = z.date().meta({ override: { type: "string", format: "date-time" } });
export const ZDateNull = ZDate.nullable();
export const ZRole = z.enum(MEMBER_ROLES);
export const ZJson = z.unknown();
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
export const ZInviteState = z.enum(["valid", "expired", "revoked", "exhausted"]);
export const ZMeshRef = z.object({ id: z.string(), slug: z.string(), name: z.string() });
export const ZUserRef = z.object({ id: z.string(), name: z.string().nullable() });
export const meshEnums = {
  visibility: z.enum(MESH_VISIBILITIES),
  transport: z.enum(MESH_TRANSPORTS),
  tier: z.enum(MESH_TIERS),
};
export const ZAudit = z.object({
  id: z.string(),
  eventType: z.enum(AUDIT_TYPES),
  actorUserId: z.string().nullable(),
  actorMemberId: z.string().nullable(),
  metadata: ZJson,
  createdAt: ZDate,
});
/** An audit event with the names people read (the actor's, and the member it concerns). */
export const ZNamedAudit = ZAudit.extend({ actorName: z.string().nullable(), targetName: z.string().nullable() });
export const ZInviteRow = z.object({
  id: z.string(),
  role: ZRole,
  expiresAt: ZDate,
  maxUses: z.number().int().nullable(),
  usedCount: z.number().int(),
  revokedAt: ZDateNull,
  createdAt: ZDate,
  state: ZInviteState,
});
export const ZOwner = z.object({ id: z.string(), name: z.string().nullable(), email: z.string().nullable() });
