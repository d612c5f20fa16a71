import { z } from "zod";

export const MESH_VISIBILITIES = ["private", "unlisted", "public"] as const;
export const MESH_TRANSPORTS = ["relay", "direct"] as const;
export const MESH_TIERS = ["free", "pro", "enterprise"] as const;
export const MEMBER_ROLES = ["owner", "admin", "member", "observer"] as const;

export const ZSlug = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, { error: "slug_too_short" })
  .max(64, { error: "slug_too_long" })
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, { error: "slug_invalid" });

export const ZMeshId = z.uuid({ error: "invalid_mesh_id" });

export const ZMeshIdInput = z.object({ meshId: ZMeshId });
export type TMeshIdInput = z.output<typeof ZMeshIdInput>;

/** Pages are 1-based; at most 100 rows a page. */
export const ZPageInput = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TPageInput = z.output<typeof ZPageInput>;

/** Suggests a slug from a mesh name: lower-case ASCII words joined by hyphens. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/g, "");
}
