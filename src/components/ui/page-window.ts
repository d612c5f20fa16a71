/**
 * The page numbers a pager shows: the first and last page, the current one and its two neighbours on
 * each side, and a gap ("…") where numbers are left out. 326 pages at page 40: 1 … 38 39 40 41 42 … 326.
 */
export function pageWindow(page: number, pages: number, around = 2): (number | "gap")[] {
  const out: (number | "gap")[] = [];
  const lo = Math.max(2, page - around);
  const hi = Math.min(pages - 1, page + around);
  out.push(1);
  if (lo > 2) out.push(lo === 3 ? 2 : "gap");
  for (let p = lo; p <= hi; p++) out.push(p);
  if (hi < pages - 1) out.push(hi === pages - 2 ? pages - 1 : "gap");
  if (pages > 1) out.push(pages);
  return out;
}

/** A page number typed by a person, clamped to the pages there are (anything else: the first page). */
export function clampPage(value: unknown, pages: number): number {
  const n = Math.trunc(Number(value));
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(n, Math.max(1, pages));
}
