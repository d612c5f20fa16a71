import { z } from "zod";

/** Admin lists are paginated (at most 100 rows a page), sortable on indexed columns, searchable. */
export const ZSortDir = z.enum(["asc", "desc"]).default("desc");
export const ZSearch = z.string().trim().max(100).optional();

/** The columns each admin list can be sorted on (the pages offer exactly these). */
export const ADMIN_MESH_SORTS = ["createdAt", "name", "slug"] as const;
export const ADMIN_SESSION_SORTS = ["connectedAt", "disconnectedAt"] as const;
export const ADMIN_INVITE_SORTS = ["createdAt", "expiresAt"] as const;
