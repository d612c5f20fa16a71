import { AppError } from "../core/errors";

// Cross-site request forgery (docs/security.md, "CSRF"): a request that changes state and carries the
// session cookie must be JSON (a cross-site page can send text/plain or a form without asking the
// browser's permission, never application/json) and must come from one of the app's own origins: its
// Origin header, else its Sec-Fetch-Site header, says so. Requests without the cookie (API keys, the
// command line) are not browsers acting for a user and pass as they are.

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// Auth.js's session cookie, plain and with the __Secure- prefix it uses over https.
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?authjs\.session-token(?:\.\d+)?=/;

/** True when a request carries the session cookie. */
export function hasSessionCookie(headers: Headers): boolean {
  return SESSION_COOKIE.test(headers.get("cookie") ?? "");
}

/** The origin a request was addressed to (its scheme and Host), as a browser on that page would send it. */
export function requestOrigin(req: Request): string | null {
  const host = req.headers.get("host");
  if (!host) return null;
  const proto = new URL(req.url).protocol;
  return `${proto}//${host}`;
}

/**
 * The refusal of a request that rides on the session cookie without being the app's own (null when
 * it may go on). `allowedOrigins`: the configured public origins; the request's own origin is allowed too.
 */
export function csrfRefusal(req: Request, allowedOrigins: readonly string[]): AppError | null {
  if (!STATE_CHANGING.has(req.method) || !hasSessionCookie(req.headers)) return null;
  const type = (req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") return new AppError("UNSUPPORTED_MEDIA_TYPE", "json_required");
  const origin = req.headers.get("origin");
  if (origin !== null) {
    const own = requestOrigin(req);
    return origin === own || allowedOrigins.includes(origin) ? null : new AppError("FORBIDDEN", "csrf_refused");
  }
  const site = req.headers.get("sec-fetch-site");
  return site === "same-origin" ? null : new AppError("FORBIDDEN", "csrf_refused");
}
