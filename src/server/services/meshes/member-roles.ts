/** Roles a manager may hand out: the owner any of these, a mesh admin only `ADMIN_ASSIGNABLE_ROLES`. */
export const ASSIGNABLE_ROLES = ["admin", "member", "observer"] as const;
/** The roles a mesh admin manages (removes, and grants) (docs/mesh-api.md, "Members"). */
export const ADMIN_ASSIGNABLE_ROLES = ["member", "observer"] as const;

const RANK: Readonly<Record<string, number>> = { owner: 3, admin: 2, member: 1, observer: 0 };

/**
 * A user's role in a mesh: the owner's is `owner`; anyone else's is the highest role among their live
 * members (the one joined in the browser and each linked device), `fallback` when they have none.
 */
export function roleOfUser<R extends string, F>(isOwner: boolean, roles: readonly R[], fallback: F): R | "owner" | F {
  if (isOwner) return "owner";
  let best: R | undefined;
  for (const r of roles) if (best === undefined || (RANK[r] ?? -1) > (RANK[best] ?? -1)) best = r;
  return best ?? fallback;
}
