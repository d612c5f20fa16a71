/** Roles a manager may hand out: the owner any of these, a mesh admin only `ADMIN_ASSIGNABLE_ROLES`. */
export const ASSIGNABLE_ROLES = ["admin", "member", "observer"] as const;
/** The roles a mesh admin manages (removes, and grants) (docs/mesh-api.md, "Members"). */
export const ADMIN_ASSIGNABLE_ROLES = ["member", "observer"] as const;
