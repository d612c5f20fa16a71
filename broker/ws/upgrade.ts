import type http from "node:http";
import type { Duplex } from "node:stream";
import { z } from "zod";
import type { Db } from "../../src/server/core/db";
import { AppError, type AppErrorCode } from "../../src/server/core/errors";
import type { Logger } from "../../src/server/core/logger";
import type { TrustProxy } from "../../src/server/core/client-address";
import type { Semaphore } from "../../src/server/core/semaphore";
import type { RateLimiter } from "../../src/server/core/shared-limit";
import { retryAfterSeconds } from "../../src/server/core/token-bucket";
import { requestClientAddress, requestTarget, safeErrorFields } from "../http/request";
import type { BrokerMetrics } from "../metrics";
import { NonceCache, parseWsAuth, verifyWsAuth, WS_AUTH_HEADER, WS_PATH } from "../protocol/ws-auth";
import { proofFromSubprotocols } from "../protocol/ws-subprotocol";
import { findConnectingPeer, type ConnectingPeer } from "../../src/server/services/broker/peer-connection";
import { claimNonce } from "../../src/server/services/broker/used-nonces";
import { VISITOR } from "../../src/server/services/actor";
import { brokerContext } from "../context";

export interface UpgradeDeps {
  db: Db;
  log: Logger;
  metrics: BrokerMetrics;
  limiter: RateLimiter;
  /** Which forwarded hops to believe (TRUST_PROXY). */
  trustProxy: TrustProxy;
  nonces: NonceCache;
  maxSkewMs: number;
  /** At most this many connection attempts are checked at once; a bounded number wait (connect storms). */
  gate: Semaphore;
  /** An attempt that waited longer than this for its turn gets a retriable 503 instead of the checks. */
  maxWaitMs: number;
  /** Completes the upgrade of an authenticated request (the capacity check happens there). */
  accept(req: http.IncomingMessage, socket: Duplex, head: Buffer, peer: AcceptedPeer): Promise<void>;
}

/** Longest Retry-After of a 503: clients told to wait are spread over 1 to this many seconds. */
export const BUSY_RETRY_AFTER_MAX_S = 5;

/**
 * An upgrade's refusal: an AppError whose details hold `reason` (the metrics' and the log's label, never
 * in the answer) and, where one applies, `retryAfterSeconds` (the Retry-After header).
 */
export function upgradeRefusal(
  code: AppErrorCode,
  message: string,
  reason: string,
  retryAfterSeconds?: number,
): AppError {
  return new AppError(code, message, { reason, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) });
}

/** A retriable refusal: 503 with a Retry-After spread over 1–5 s, so refused clients do not return together. */
export function busy(
  reason: string,
  message = "the broker is busy; try again shortly",
  random: () => number = Math.random,
): AppError {
  const seconds = 1 + Math.floor(random() * BUSY_RETRY_AFTER_MAX_S);
  return upgradeRefusal("SERVICE_UNAVAILABLE", message, reason, Math.min(seconds, BUSY_RETRY_AFTER_MAX_S));
}

const reasonOf = (refusal: AppError) => String(refusal.details?.reason ?? refusal.code);
const ZIds = z.object({ mesh: z.uuid(), member: z.uuid(), receive: z.enum(["0", "1"]).nullable() });

/** An authenticated peer and whether its connection takes messages (`receive=0`: it only sends). */
export type AcceptedPeer = ConnectingPeer & { receives: boolean };

/**
 * Handles an HTTP upgrade: the peer proves it holds its member's key before the WebSocket exists,
 * so a refused peer gets an ordinary HTTP answer and never a socket (docs/protocol.md, "Connecting").
 */
export function createUpgradeHandler(deps: UpgradeDeps) {
  const refused = (socket: Duplex, outcome: AppError) => {
    deps.metrics.wsAuthFailures.inc({ reason: reasonOf(outcome) });
    deps.log.info({ event: "ws_refused", reason: reasonOf(outcome), status: outcome.httpStatus }, "connection refused");
    refuse(socket, outcome);
  };
  return (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    // A client that hangs up during the checks must not raise an unhandled socket error.
    socket.on("error", () => {});
    // A storm waits its turn, up to a bound; past it, a retriable 503 at once instead of a pile of
    // database work that would time out (docs/protocol.md, "Connect storms").
    const queuedAt = Date.now();
    void deps.gate
      .run(async () => {
        if (socket.destroyed) return;
        // Its client is about to give up (or already has): a quick 503 is worth more than late work.
        if (Date.now() - queuedAt > deps.maxWaitMs) return refused(socket, busy("busy"));
        let outcome: AcceptedPeer | AppError;
        try {
          outcome = await authenticate(req, deps);
        } catch (error) {
          deps.log.warn({ event: "ws_auth_failed", ...safeErrorFields(error) }, "connection check failed");
          return refused(socket, busy("error", "try again later"));
        }
        if (outcome instanceof AppError) return refused(socket, outcome);
        if (!socket.destroyed) await deps.accept(req, socket, head, outcome);
      })
      .then((ran) => {
        if (ran === null) refused(socket, busy("busy"));
      })
      .catch((error: unknown) => {
        deps.log.error({ event: "ws_admit_failed", ...safeErrorFields(error) }, "connection not admitted");
        refuse(socket, busy("error", "try again later"));
      });
  };
}

async function authenticate(req: http.IncomingMessage, deps: UpgradeDeps): Promise<AcceptedPeer | AppError> {
  const url = requestTarget(req);
  if (!url) return upgradeRefusal("BAD_REQUEST", "malformed request target", "bad_request");
  if (url.pathname !== WS_PATH) return upgradeRefusal("NOT_FOUND", "no such path", "path");
  const taken = await deps.limiter.take(requestClientAddress(req, deps.trustProxy));
  if (!taken.allowed) {
    deps.metrics.rateLimited.inc({ limit: "ws_auth" });
    const retryAfter = retryAfterSeconds(taken.retryAfterMs);
    return upgradeRefusal("TOO_MANY_REQUESTS", "too many connection attempts", "rate_limited", retryAfter);
  }
  const ids = ZIds.safeParse({
    mesh: url.searchParams.get("mesh"),
    member: url.searchParams.get("member"),
    receive: url.searchParams.get("receive"),
  });
  if (!ids.success)
    return upgradeRefusal("BAD_REQUEST", "mesh and member must be UUIDs, receive 0 or 1", "bad_request");
  const unauthorized = (reason: string) => upgradeRefusal("UNAUTHORIZED", "authentication failed", reason);
  // The header, else the same proof offered as a subprotocol (a browser cannot set headers): same checks.
  const auth = parseWsAuth(req.headers[WS_AUTH_HEADER] ?? proofFromSubprotocols(req.headers["sec-websocket-protocol"]));
  if (!auth) return unauthorized("malformed_auth");
  if (Math.abs(Date.now() - auth.ts) > deps.maxSkewMs) return unauthorized("stale");
  const { mesh: meshId, member: memberId } = ids.data;
  // Until the proof holds, the request is a visitor's. The lookup comes before the signature check, so
  // unknown members cost no ed25519 verification.
  const visitor = brokerContext(deps.db, VISITOR);
  const peer = await findConnectingPeer(visitor, { meshId, memberId });
  if (!peer) return unauthorized("unknown_member");
  if (!verifyWsAuth({ meshId, memberId, auth, peerPubkey: peer.peerPubkey })) return unauthorized("bad_signature");
  // Single use: this node's memory first, then the table every node shares (a proof captured on one
  // node cannot open a connection on another within the clock window).
  const nonceKey = `${memberId}|${auth.nonce}`;
  if (!deps.nonces.use(nonceKey)) return unauthorized("replay");
  if (!(await claimNonce(visitor, { key: `ws|${nonceKey}`, ttlMs: 2 * deps.maxSkewMs }))) return unauthorized("replay");
  return { ...peer, receives: ids.data.receive !== "0" };
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  429: "Too Many Requests",
  503: "Service Unavailable",
};

/** Answers an upgrade request with a plain HTTP refusal and closes the socket. */
export function refuse(socket: Duplex, r: AppError): void {
  if (socket.destroyed) return;
  // One message for every 401, so the answer does not tell an unknown member from a bad signature.
  const body = JSON.stringify({ error: { code: r.code, message: r.message } });
  const retryAfter = r.details?.retryAfterSeconds;
  const extra = typeof retryAfter === "number" ? `retry-after: ${retryAfter}\r\n` : "";
  const status = r.httpStatus;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
      `cache-control: no-store\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
