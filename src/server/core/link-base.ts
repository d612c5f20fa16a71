// Which address the links shown to a person use (docs/invites.md, "Which address links use"): the one
// they opened the app at, when it is one of the app's own (PUBLIC_BASE_URL's or AUTH_URL's host, or
// another loopback name for a loopback PUBLIC_BASE_URL on the same port: localhost, 127.0.0.1, [::1]),
// else PUBLIC_BASE_URL. The request's Host (or the X-Forwarded-Host a trusted proxy set: src/web/server.ts
// drops one a client wrote) only chooses among these; it never writes a host or a scheme into a link,
// so a forged header cannot send someone's invite to another server.

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
// A bare host with an optional port: no user info, path, list or whitespace gets through to URL parsing.
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The configured public addresses, as src/server/env.ts reads them. */
export interface LinkBaseConfig {
  publicBaseUrl: string;
  authUrl: string | undefined;
}

/** The host the request was addressed to (a trusted proxy's X-Forwarded-Host first), or null when unusable. */
function requestHost(headers: Headers): URL | null {
  const raw = (headers.get("x-forwarded-host") ?? headers.get("host") ?? "").trim();
  if (!HOST.test(raw)) return null;
  try {
    return new URL(`http://${raw}`);
  } catch {
    return null;
  }
}

const portOf = (url: URL) => url.port || (url.protocol === "https:" ? "443" : "80");

/** The base URL for links shown in answer to this request (see the top of this file). */
export function linkBaseFor(headers: Headers, config: LinkBaseConfig): string {
  const asked = requestHost(headers);
  if (!asked) return config.publicBaseUrl;
  const publicUrl = new URL(config.publicBaseUrl);
  if (asked.host === publicUrl.host) return config.publicBaseUrl;
  if (config.authUrl) {
    const auth = new URL(config.authUrl);
    if (asked.host === auth.host) return auth.origin;
  }
  const askedPort = asked.port || "80";
  if (LOOPBACK.has(publicUrl.hostname) && LOOPBACK.has(asked.hostname) && askedPort === portOf(publicUrl))
    return `${publicUrl.protocol}//${asked.host}`;
  return config.publicBaseUrl;
}
