import type http from "node:http";
import { clientAddressOf, type TrustProxy } from "../../src/server/core/client-address";
import { sendJson } from "../../src/server/core/lifecycle";

/**
 * The request's target as a URL, or null when the URL parser refuses it (an absolute form such as
 * `http://[` passes Node's HTTP parser): a client's mistake, answered 400, never an exception in a listener.
 */
export function requestTarget(req: http.IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? "/", "http://broker");
  } catch {
    return null;
  }
}

/**
 * The client address used for rate limits: the socket's peer, or behind proxies TRUST_PROXY names,
 * the X-Forwarded-For hop they vouch for (src/server/core/client-address.ts, shared with the web app).
 */
export function requestClientAddress(req: http.IncomingMessage, trust: TrustProxy): string {
  const forwarded = req.headers["x-forwarded-for"];
  return clientAddressOf(req.socket.remoteAddress, Array.isArray(forwarded) ? forwarded.join(",") : forwarded, trust);
}

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: "too_large" | "aborted" };

/**
 * Reads a request body of at most maxBytes. A declared Content-Length above the cap is refused before
 * any byte is read, and a streamed body stops being kept at the first chunk past the cap, so an
 * oversized body never sits in memory. What follows is discarded by the caller's drainAndClose.
 */
export function readBoundedBody(req: http.IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ ok: false, reason: "too_large" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: BodyResult) => {
      req.off("data", onData).off("end", onEnd).off("error", onAbort).off("aborted", onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        done({ ok: false, reason: "too_large" });
      } else chunks.push(chunk);
    };
    const onEnd = () => done({ ok: true, body: Buffer.concat(chunks, size) });
    const onAbort = () => done({ ok: false, reason: "aborted" });
    req.on("data", onData).on("end", onEnd).on("error", onAbort).on("aborted", onAbort);
  });
}

/**
 * Answers and closes the connection while discarding the rest of the body (reading it keeps the
 * client from seeing a reset before our answer; the cap on discarded bytes stops an endless body).
 */
export function answerAndClose(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader("connection", "close");
  sendJson(res, status, body);
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > 16 * 1024 * 1024) req.socket.destroy();
  });
  req.resume();
  setTimeout(() => req.socket.destroy(), 10_000).unref();
}

/** The REST error body of the product: `{ error: { code, message, details? } }`. */
export function errorBody(code: string, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/** Name and code of an error, for logs that must not carry the values a message may quote. */
export function safeErrorFields(error: unknown): { errorName: string; errorCode?: string } {
  const name = error instanceof Error ? error.name : typeof error;
  const code = (error as { code?: unknown } | null)?.code;
  return { errorName: name, ...(typeof code === "string" ? { errorCode: code } : {}) };
}
