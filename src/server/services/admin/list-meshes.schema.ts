import { z } from "zod";
import { MESH_TIERS, MESH_TRANSPORTS, MESH_VISIBILITIES, ZPageInput } from "../meshes/schemas";
import { ADMIN_MESH_SORTS, ZSearch, ZSortDir } from "./schemas";

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
