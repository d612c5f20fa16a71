import { OutboundError } from "../core/outbound/request";
import { ScrapeError } from "./types";

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);
const TIMEOUT_CODES = new Set([
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
const CHROMIUM_NETWORK =
  /net::ERR_(CONNECTION_(REFUSED|RESET|CLOSED|ABORTED|FAILED)|EMPTY_RESPONSE|NAME_NOT_RESOLVED|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|NETWORK_CHANGED|SOCKET_NOT_CONNECTED)/;
const CHROMIUM_TIMEOUT = /net::ERR_(TIMED_OUT|CONNECTION_TIMED_OUT)/;

/** The error for an HTTP status the platform answered with (undefined for a success). */
export function errorForStatus(status: number, what: string, retryAfter?: string | null): ScrapeError | undefined {
  if (status < 400) return undefined;
  if (status === 404 || status === 410)
    return new ScrapeError("target_not_found", `${what}: ${status}, no such place`, { status });
  if (status === 403 || status === 401)
    return new ScrapeError("blocked", `${what}: ${status}, blocked (captcha)`, { status });
  if (status === 429) {
    const seconds = parseRetryAfter(retryAfter);
    return new ScrapeError(
      "rate_limited",
      `${what}: 429, rate limited${seconds === undefined ? "" : `, retry after ${seconds} s`}`,
      {
        status,
        retryAfterSeconds: seconds,
      },
    );
  }
  if (status === 408 || status === 504)
    return new ScrapeError("timeout", `${what}: ${status}, timed out upstream`, { status });
  // 502 and 503 say the platform is overloaded or restarting: worth another try, like a dropped connection.
  if (status === 502 || status === 503)
    return new ScrapeError("network", `${what}: ${status}, platform unavailable`, { status });
  return new ScrapeError("internal", `${what}: unexpected status ${status}`, { status });
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date). */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The error for an aborted signal: its reason when that is a ScrapeError (e.g. "cancelled"), otherwise a timeout. */
export function abortError(signal: AbortSignal): ScrapeError {
  const reason: unknown = signal.reason;
  if (reason instanceof ScrapeError) return reason;
  return new ScrapeError("timeout", "scrape aborted: time limit reached", { cause: reason });
}

/** Throws the abort error when the signal has fired. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

function codeOf(error: unknown): string | undefined {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/**
 * Turns anything a scrape threw into a ScrapeError. An aborted signal wins over the error it caused
 * (closing the page mid-step makes Playwright throw "Target closed", which is not the story).
 */
export function classifyError(error: unknown, signal?: AbortSignal): ScrapeError {
  if (signal?.aborted) return abortError(signal);
  if (error instanceof ScrapeError) return error;
  if (error instanceof OutboundError) return outboundFailure(error);
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : "";
  const code = codeOf(error);
  if (name === "TimeoutError" || (code && TIMEOUT_CODES.has(code)) || CHROMIUM_TIMEOUT.test(message)) {
    return new ScrapeError("timeout", `timed out: ${firstLine(message)}`, { cause: error });
  }
  if ((code && NETWORK_CODES.has(code)) || CHROMIUM_NETWORK.test(message)) {
    return new ScrapeError("network", `network error: ${code ?? firstLine(message)}`, { cause: error });
  }
  return new ScrapeError("internal", `unexpected error: ${firstLine(message)}`, { cause: error });
}

/**
 * A failed request to the platform. Only the platform's own origin is ever asked, so a network error
 * tells nothing about any other host; a refused address does not say which.
 */
function outboundFailure(error: OutboundError): ScrapeError {
  switch (error.code) {
    case "refused":
      return new ScrapeError(
        "invalid_target",
        "target_not_allowed: the platform's address is not allowed (private or unresolvable)",
        { cause: error },
      );
    case "timeout":
    case "aborted":
      return new ScrapeError("timeout", `timed out: ${error.message}`, { cause: error });
    case "too_large":
      return new ScrapeError("internal", `the platform's ${error.message}`, { cause: error });
    default:
      return new ScrapeError("network", `network error: ${error.detail ?? "connection failed"}`, { cause: error });
  }
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").slice(0, 300);
}
