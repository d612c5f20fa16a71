// One authenticated WebSocket to the broker: opens it with the signed `x-mesh-auth` header and reports
// how it ended (closed after a welcome, refused before upgrading, or failed to connect at all).
import WebSocket from "ws";
import { ERROR_MAP, shouldRetry } from "../../src/server/core/errors";
import { closeWith } from "../protocol/close";
import { signWsAuth, WS_AUTH_HEADER, WS_PATH } from "../protocol/ws-auth";
import type { TServerFrame } from "../protocol/frames";
import { MeshClientError } from "./mesh-client-error";
import { backoffDelay, DEFAULT_BACKOFF, RESTART_BACKOFF, type BackoffOptions } from "./delivery";
import { brokerWsUrl } from "./join-link";
import { parseServerFrame } from "./server-frames";

/** How one socket ended: a close after opening, or a refusal (an HTTP answer instead of the upgrade). */
export type SocketEnd =
  | { kind: "closed"; code: number; reason: string }
  | { kind: "refused"; status: number; code?: string; retryAfterSeconds?: number }
  | { kind: "failed"; message: string };

export interface SocketHandlers {
  onFrame: (frame: TServerFrame) => void;
  onEnd: (end: SocketEnd) => void;
}

export interface SocketTarget {
  brokerUrl: string;
  meshId: string;
  memberId: string;
  signSecretKey: Uint8Array;
  /** False: the connection only sends (`receive=0`); the broker pushes it no messages. */
  receive?: boolean;
}

/** Opens one socket; every outcome arrives through the handlers exactly once (onEnd). */
export function openSocket(
  target: SocketTarget,
  handlers: SocketHandlers,
  opts: { handshakeTimeoutMs?: number } = {},
): WebSocket {
  const url = `${brokerWsUrl(target.brokerUrl, WS_PATH)}?mesh=${encodeURIComponent(target.meshId)}&member=${encodeURIComponent(target.memberId)}${target.receive === false ? "&receive=0" : ""}`;
  const auth = signWsAuth({ meshId: target.meshId, memberId: target.memberId, secretKey: target.signSecretKey });
  const ws = new WebSocket(url, {
    headers: { [WS_AUTH_HEADER]: auth },
    handshakeTimeout: opts.handshakeTimeoutMs ?? 10_000,
  });
  let ended = false;
  let refusal: SocketEnd | undefined;
  let failure: string | undefined;
  const end = (e: SocketEnd) => {
    if (ended) return;
    ended = true;
    handlers.onEnd(e);
  };

  ws.on("unexpected-response", (_req, res) => {
    const retry = Number(res.headers["retry-after"]);
    let body = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      if (body.length < 4096) body += chunk;
    });
    res.on("end", () => {
      refusal = {
        kind: "refused",
        status: res.statusCode ?? 0,
        code: errorCodeOf(body),
        retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? retry : undefined,
      };
      ws.terminate();
    });
    res.on("error", () => ws.terminate());
  });
  ws.on("message", (data, isBinary) => {
    if (isBinary) return;
    // Frames this client does not understand (a newer broker's) are skipped.
    const frame = parseServerFrame(String(data));
    if (frame) handlers.onFrame(frame);
  });
  ws.on("error", (error) => {
    failure ??= (error as NodeJS.ErrnoException).code ?? error.message;
  });
  ws.on("close", (code, reason) => {
    if (refusal) end(refusal);
    else if (failure && code === ERROR_MAP.CONNECTION_LOST.ws) end({ kind: "failed", message: failure });
    else end({ kind: "closed", code, reason: String(reason) });
  });
  return ws;
}

/**
 * Closes a socket normally (`CLOSED`, 1000) and waits for it; a broker that does not answer the closing
 * handshake is not waited for (ws would wait 30 s).
 */
export function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => ws.terminate(), 2_000);
    ws.once("close", () => (clearTimeout(timer), resolve()));
    if (ws.readyState === ws.OPEN) closeWith(ws, "CLOSED", "bye");
    else ws.terminate();
  });
}

/**
 * The client's error for how a socket ended: the close's reason (else `CLOSED_<code>`), the refusal's
 * code (else `HTTP_<status>`), and whether dialling again can help: ERROR_MAP's retry flag of the code,
 * else of the close code or status (docs/protocol.md, "Close codes": a removed member, an archived mesh,
 * every authentication failure are for good).
 */
export function endError(end: SocketEnd): MeshClientError {
  if (end.kind === "closed")
    return new MeshClientError(
      end.reason || `CLOSED_${end.code}`,
      `the broker ended this membership (${end.code} ${end.reason})`,
      { retryable: shouldRetry({ code: end.reason, close: end.code }) },
    );
  if (end.kind === "refused")
    return new MeshClientError(end.code ?? `HTTP_${end.status}`, refusalMessage(end.status), {
      retryable: shouldRetry({ code: end.code, status: end.status }),
      status: end.status,
      retryAfterSeconds: end.retryAfterSeconds,
    });
  return new MeshClientError("UNREACHABLE", end.message, { retryable: true });
}

// The restart back-off lives with the other back-offs (delivery.ts), which the chat page shares.
export { RESTART_BACKOFF };

/** How many milliseconds past a Retry-After a refused client may come back, at random: refused clients spread out. */
export const RETRY_AFTER_JITTER_MS = 1_000;

/** Whether an end says the node is away (down, restarting, shutting down) rather than refusing this client. */
export function nodeAway(end: SocketEnd): boolean {
  if (end.kind === "failed") return true;
  if (end.kind === "refused") return !end.retryAfterSeconds && [502, 503, 504].includes(end.status);
  return end.code === ERROR_MAP.SHUTTING_DOWN.ws || end.code === ERROR_MAP.CONNECTION_LOST.ws;
}

/**
 * What a client does once a socket ended (`attempt` counts the reconnects since the last welcome): stop
 * with its error when that is not retryable, or dial again after a delay. The delay is the broker's
 * Retry-After (a 429, or a 503 of a connect storm or of a draining node) plus up to a second at random, so
 * the peers refused together do not return together, and none sooner than told; while the node is away
 * (`nodeAway`), the short restart back-off; else exponential back-off with jitter. `backoff` replaces both
 * back-offs (tests).
 */
export function afterEnd(
  end: SocketEnd,
  attempt: number,
  opts: { backoff?: BackoffOptions; random?: () => number } = {},
): { fatal: MeshClientError } | { delayMs: number } {
  const error = endError(end);
  if (!error.retryable) return { fatal: error };
  const random = opts.random ?? Math.random;
  const wait = end.kind === "refused" && end.retryAfterSeconds ? end.retryAfterSeconds * 1000 : 0;
  if (wait > 0) return { delayMs: wait + Math.round(random() * RETRY_AFTER_JITTER_MS) };
  const backoff = opts.backoff ?? (nodeAway(end) ? RESTART_BACKOFF : DEFAULT_BACKOFF);
  return { delayMs: backoffDelay(attempt, backoff, random) };
}

function refusalMessage(status: number): string {
  if (status === 401)
    return "the broker refused this peer's key (member revoked or unknown, mesh archived, or this machine's clock is more than 60 s off)";
  return `the broker refused the connection (HTTP ${status})`;
}

function errorCodeOf(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}
