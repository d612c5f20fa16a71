/**
 * Where to go after signing in or up: only a path of this site, never another origin (an open
 * redirect). `//host` and `/\host` are other origins to a browser, and so is anything with a scheme or
 * a control character; undefined for those and for anything too long.
 */
export function safeCallbackPath(value: string | undefined | null): string | undefined {
  if (!value || value.length > 2_000) return undefined;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return undefined;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  return value;
}

/** The request header the proxy (src/proxy.ts) sets to the path and query a page was asked at. */
export const REQUEST_PATH_HEADER = "x-review-mesh-path";

/**
 * Where sign-in sends a signed-out visitor back to: the page they asked for when it is a path of
 * this site (as safeCallbackPath decides), else the area's own start page.
 */
export function returnPath(requested: string | undefined | null, fallback: string): string {
  return safeCallbackPath(requested) ?? fallback;
}
