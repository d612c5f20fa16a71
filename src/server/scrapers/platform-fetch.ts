import { outboundRequest, type OutboundResponse } from "../core/outbound/request";
import { ScrapeError } from "./types";
import { platformAllowsPrivate } from "./platform-access";

/** Redirects followed within the platform's origin, at most. */
const MAX_REDIRECTS = 5;
/** The largest answer a scraper reads from the platform (a page of reviews is a few kilobytes). */
export const PLATFORM_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface PlatformRequest {
  /** The platform's origin: the only one this request, and any redirect it follows, may reach. */
  origin: string;
  signal: AbortSignal;
  deadlineMs: number;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** The platform answered with a redirect to another origin: not followed. */
export class OffOriginRedirect extends ScrapeError {
  constructor() {
    super("blocked", "the platform redirected to another origin (not followed)");
  }
}

/**
 * One request of a scraper to its platform under the outbound guard (core/outbound/request.ts), with
 * redirects followed only within the platform's origin (at most 5). Loopback and private addresses
 * only for an origin the operator configured as such (platform-access.ts). Throws OutboundError for
 * a failed request, OffOriginRedirect for a redirect elsewhere.
 */
export async function platformFetch(url: URL, req: PlatformRequest): Promise<{ url: URL; response: OutboundResponse }> {
  const allowPrivate = platformAllowsPrivate(req.origin);
  let current = url;
  let method = req.method ?? "GET";
  let body = req.body;
  for (let hop = 0; ; hop += 1) {
    if (current.origin !== req.origin) throw new OffOriginRedirect();
    const response = await outboundRequest(current, {
      method,
      headers: req.headers,
      ...(body === undefined ? {} : { body }),
      deadlineMs: req.deadlineMs,
      maxResponseBytes: PLATFORM_MAX_RESPONSE_BYTES,
      overflow: "error",
      allowPrivate,
      signal: req.signal,
    });
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || !location || hop >= MAX_REDIRECTS)
      return { url: current, response };
    current = new URL(location, current);
    // 301, 302 and 303 turn a POST into a GET, as browsers do; 307 and 308 repeat it.
    if (response.status !== 307 && response.status !== 308) {
      method = method === "HEAD" ? "HEAD" : "GET";
      body = undefined;
    }
  }
}
