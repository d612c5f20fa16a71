import type { BrowserContext, Route } from "playwright-core";
import { OutboundError } from "../../core/outbound/request";
import { OffOriginRedirect, platformFetch } from "../platform-fetch";

// The browser scrapers' network gate (docs/scrapers.md, "Network"): Chromium itself reaches nothing.
// Every request of a scrape's pages (documents, scripts, XHR, images, popups) is intercepted: one to
// another origin than the platform's is aborted unanswered; one to the platform is made by this
// process under the outbound guard (pinned, checked address; redirects only within the origin) and
// its answer handed to the page. WebSockets are closed before they connect. What Chromium would open
// without a request (preconnect, DNS prefetch) goes to a proxy that answers nothing (shared-browser.ts).

/** What the gate saw during one scrape. */
export interface GateState {
  /** Requests to other origins (and redirects to them) that were aborted. */
  blocked: number;
  /** Why the platform's main document could not be fetched, when it could not. */
  documentError?: unknown;
}

// Headers the page's request carries that the gate sets itself, or that describe the connection.
const DROP_REQUEST = new Set([
  "host",
  "connection",
  "content-length",
  "accept-encoding",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
]);
const DROP_RESPONSE = new Set(["connection", "content-length", "content-encoding", "transfer-encoding", "keep-alive"]);

function abortCode(error: unknown): string {
  if (!(error instanceof OutboundError)) return "failed";
  if (error.code === "timeout") return "timedout";
  if (error.code === "refused") return "addressunreachable";
  if (error.detail === "ECONNREFUSED") return "connectionrefused";
  if (error.detail === "ECONNRESET") return "connectionreset";
  if (error.detail === "ENOTFOUND" || error.detail === "EAI_AGAIN") return "namenotresolved";
  return "connectionfailed";
}

function isMainDocument(route: Route): boolean {
  try {
    const request = route.request();
    return request.isNavigationRequest() && !request.frame().parentFrame();
  } catch {
    return false; // a request without a frame (a worker's)
  }
}

/** Installs the gate on a scrape's browser context: only `origin` is reachable, through this process. */
export async function installGate(
  context: BrowserContext,
  origin: string,
  signal: AbortSignal,
  deadlineMs: number,
): Promise<GateState> {
  const state: GateState = { blocked: 0 };
  await context.routeWebSocket(/.*/, (ws) => {
    state.blocked += 1;
    void ws.close();
  });
  await context.route("**/*", async (route: Route) => {
    const request = route.request();
    let url: URL;
    try {
      url = new URL(request.url());
    } catch {
      return route.abort("blockedbyclient");
    }
    if (url.origin !== origin) {
      state.blocked += 1;
      return route.abort("blockedbyclient");
    }
    const headers: Record<string, string> = { "accept-encoding": "identity" };
    for (const [name, value] of Object.entries(await request.allHeaders()))
      if (!DROP_REQUEST.has(name) && !name.startsWith(":")) headers[name] = value;
    try {
      const body = request.postDataBuffer();
      const { response } = await platformFetch(url, {
        origin,
        signal,
        deadlineMs,
        method: request.method(),
        headers,
        ...(body ? { body } : {}),
      });
      const answer: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined || DROP_RESPONSE.has(name)) continue;
        answer[name] = Array.isArray(value) ? value.join("\n") : value;
      }
      await route.fulfill({ status: response.status, headers: answer, body: response.body });
    } catch (error) {
      if (error instanceof OffOriginRedirect) state.blocked += 1;
      if (isMainDocument(route)) state.documentError ??= error;
      await route.abort(error instanceof OffOriginRedirect ? "blockedbyclient" : abortCode(error)).catch(() => {});
    }
  });
  return state;
}
