import { z } from "zod";
import { ZDate, ZDateNull, ZRole, ZAudit, meshEnums } from "./common";

// Output schema of the export of the signed-in user's data.

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
