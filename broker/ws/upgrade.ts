import type http from "node:http";
import type { Duplex } from "node:stream";
import { z } from "zod";
import type { Db } from "../../src/server/core/db";
import type { Logger } from "../../src/server/core/logger";
import type { TrustProxy } from "../../src/server/core/client-address";
import type { TokenBucketLimiter } from "../../src/server/core/token-bucket";
import { requestClientAddress, safeErrorFields } from "../http/request";
import type { BrokerMetrics } from "../metrics";
import { NonceCache, parseWsAuth, verifyWsAuth, WS_AUTH_HEADER, WS_PATH } from "../protocol/ws-auth";
import { findConnectingPeer, type ConnectingPeer } from "../../src/server/services/broker/peer-connection";
import { claimNonce } from "../../src/server/services/broker/used-nonces";

export interface UpgradeDeps {
  db: Db;
  log: Logger;
  metrics: BrokerMetrics;
  limiter: TokenBucketLimiter;
  /** Which forwarded hops to believe (TRUST_PROXY). */
  trustProxy: TrustProxy;
  nonces: NonceCache;
  maxSkewMs: number;
  /** Completes the upgrade of an authenticated request (the capacity check happens there). */
  accept(req: http.IncomingMessage, socket: Duplex, head: Buffer, peer: ConnectingPeer): void;
}

export type Refusal = { status: number; code: string; reason: string; message: string; headers?: Record<string, string> };
const ZIds = z.object({ mesh: z.uuid(), member: z.uuid() });

/**
 * Handles an HTTP upgrade: the peer proves it holds its member's key before the WebSocket exists,
 * so a refused peer gets an ordinary HTTP answer and never a socket (docs/protocol.md, "Connecting").
 */
export function createUpgradeHandler(deps: UpgradeDeps) {
  return (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    // A client that hangs up during the checks must not raise an unhandled socket error.
    socket.on("error", () => {});
    authenticate(req, deps).then(
      (outcome) => {
        if ("status" in outcome) {
          deps.metrics.wsAuthFailures.inc({ reason: outcome.reason });
          deps.log.info({ event: "ws_refused", reason: outcome.reason, status: outcome.status }, "connection refused");
          refuse(socket, outcome);
        } else if (!socket.destroyed) {
          deps.accept(req, socket, head, outcome);
        }
      },
      (error: unknown) => {
        deps.log.error({ event: "ws_auth_failed", ...safeErrorFields(error) }, "connection check failed");
        refuse(socket, { status: 503, code: "SERVICE_UNAVAILABLE", reason: "error", message: "try again later" });
      },
    );
  };
}

async function authenticate(req: http.IncomingMessage, deps: UpgradeDeps): Promise<ConnectingPeer | Refusal> {
  const url = new URL(req.url ?? "/", "http://broker");
  if (url.pathname !== WS_PATH) return { status: 404, code: "NOT_FOUND", reason: "path", message: "no such path" };
  const taken = deps.limiter.take(requestClientAddress(req, deps.trustProxy));
  if (!taken.allowed) {
    deps.metrics.rateLimited.inc({ limit: "ws_auth" });
    const retryAfter = String(Math.max(1, Math.ceil(taken.retryAfterMs / 1000)));
    return { status: 429, code: "TOO_MANY_REQUESTS", reason: "rate_limited", message: "too many connection attempts", headers: { "retry-after": retryAfter } };
  }
  const ids = ZIds.safeParse({ mesh: url.searchParams.get("mesh"), member: url.searchParams.get("member") });
  if (!ids.success) return { status: 400, code: "BAD_REQUEST", reason: "bad_request", message: "mesh and member must be UUIDs" };
  const unauthorized = (reason: string): Refusal => ({ status: 401, code: "UNAUTHORIZED", reason, message: "authentication failed" });
  const auth = parseWsAuth(req.headers[WS_AUTH_HEADER]);
  if (!auth) return unauthorized("malformed_auth");
  if (Math.abs(Date.now() - auth.ts) > deps.maxSkewMs) return unauthorized("stale");
  const { mesh: meshId, member: memberId } = ids.data;
  // The lookup comes before the signature check, so unknown members cost no ed25519 verification.
  const peer = await findConnectingPeer(deps.db, { meshId, memberId });
  if (!peer) return unauthorized("unknown_member");
  if (!verifyWsAuth({ meshId, memberId, auth, peerPubkey: peer.peerPubkey })) return unauthorized("bad_signature");
  // Single use: this node's memory first, then the table every node shares (a proof captured on one
  // node cannot open a connection on another within the clock window).
  const nonceKey = `${memberId}|${auth.nonce}`;
  if (!deps.nonces.use(nonceKey)) return unauthorized("replay");
  if (!(await claimNonce(deps.db, `ws|${nonceKey}`, 2 * deps.maxSkewMs))) return unauthorized("replay");
  return peer;
}

const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests", 503: "Service Unavailable" };

/** Answers an upgrade request with a plain HTTP refusal and closes the socket. */
export function refuse(socket: Duplex, r: Refusal): void {
  if (socket.destroyed) return;
  // One message for every 401, so the answer does not tell an unknown member from a bad signature.
  const body = JSON.stringify({ error: { code: r.code, message: r.message } });
  const extra = Object.entries(r.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  socket.end(
    `HTTP/1.1 ${r.status} ${STATUS_TEXT[r.status] ?? "Error"}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
      `cache-control: no-store\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
