// One authenticated WebSocket to the broker: opens it with the signed `x-mesh-auth` header and reports
// how it ended (closed after a welcome, refused before upgrading, or failed to connect at all).
import WebSocket from "ws";
import { signWsAuth, WS_AUTH_HEADER, WS_PATH } from "../protocol/ws-auth";
import type { TServerFrame } from "../protocol/frames";
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
}

/** Opens one socket; every outcome arrives through the handlers exactly once (onEnd). */
export function openSocket(target: SocketTarget, handlers: SocketHandlers, opts: { handshakeTimeoutMs?: number } = {}): WebSocket {
  const url = `${brokerWsUrl(target.brokerUrl, WS_PATH)}?mesh=${encodeURIComponent(target.meshId)}&member=${encodeURIComponent(target.memberId)}`;
  const auth = signWsAuth({ meshId: target.meshId, memberId: target.memberId, secretKey: target.signSecretKey });
  const ws = new WebSocket(url, { headers: { [WS_AUTH_HEADER]: auth }, handshakeTimeout: opts.handshakeTimeoutMs ?? 10_000 });
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
      refusal = { kind: "refused", status: res.statusCode ?? 0, code: errorCodeOf(body), retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? retry : undefined };
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
    else if (failure && code === 1006) end({ kind: "failed", message: failure });
    else end({ kind: "closed", code, reason: String(reason) });
  });
  return ws;
}

function errorCodeOf(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}
