import { viewQuery } from "@/server/services/admin/view-params";
import type { SortState } from "./data-table";

/**
 * The header link of a sortable column: the active column flips its direction, another column
 * becomes the sort with its natural first direction (A to Z for names, newest first for dates).
 * `param: false` is for a list with one sortable column and only a direction (the audit log).
 */
export function sortState(
  base: string,
  params: Record<string, string>,
  current: { sort?: string; dir: "asc" | "desc" },
  key: string,
  opts: { firstDir?: "asc" | "desc"; param?: boolean } = {},
): SortState {
  const active = (current.sort ?? key) === key;
  const dir = active ? (current.dir === "asc" ? "desc" : "asc") : (opts.firstDir ?? "desc");
  const changes = opts.param === false ? { dir } : { sort: key, dir };
  return { active, dir: active ? current.dir : null, href: `${base}${viewQuery(params, changes)}` };
}
