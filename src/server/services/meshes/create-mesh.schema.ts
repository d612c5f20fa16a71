import { z } from "zod";
import { MESH_TIERS, MESH_TRANSPORTS, MESH_VISIBILITIES, ZSlug } from "./schemas";

export const ZCreateMeshInput = z.object({
  name: z.string().trim().min(1, { error: "name_required" }).max(80, { error: "name_too_long" }),
  slug: ZSlug,
  visibility: z.enum(MESH_VISIBILITIES).default("private"),
  transport: z.enum(MESH_TRANSPORTS).default("relay"),
  tier: z.enum(MESH_TIERS).default("free"),
});

export type TCreateMeshInput = z.output<typeof ZCreateMeshInput>;
