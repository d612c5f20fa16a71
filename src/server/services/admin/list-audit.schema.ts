import { z } from "zod";
import { ZMeshId, ZPageInput } from "../meshes/schemas";
import { AUDIT_TYPES } from "../audit/audit-types";
import { ZSearch, ZSortDir } from "./schemas";

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
