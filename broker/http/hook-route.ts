import type http from "node:http";
import { z } from "zod";
import type { Db } from "../../src/server/core/db";
import { sendJson } from "../../src/server/core/lifecycle";
import type { Logger } from "../../src/server/core/logger";
import { rateLimitHeaders, type TokenBucketLimiter } from "../../src/server/core/token-bucket";
import { findConnectingPeer, setMemberStatus } from "../../src/server/services/broker/peer-connection";
import { claimNonce } from "../../src/server/services/broker/used-nonces";
import type { MeshEvents } from "../cluster/events";
import type { BrokerMetrics } from "../metrics";
import { ZStatus, ZStatusText } from "../protocol/frames";
import { parseWsAuth, verifyHookAuth, WS_AUTH_HEADER, type NonceCache } from "../protocol/ws-auth";
import { answerAndClose, errorBody, readBoundedBody, safeErrorFields } from "./request";

/** Body of `POST /hook/set-status` (docs/protocol.md, "Status hook"). */
export const ZHookInput = z.strictObject({
  meshId: z.uuid(),
  memberId: z.uuid(),
  pid: z.number().int().min(1).max(2 ** 31 - 1),
  cwd: z.string().min(1).max(4096),
  status: ZStatus,
  text: ZStatusText.nullish(),
});
export type THookInput = z.input<typeof ZHookInput>;

export interface HookDeps {
  db: Db;
  log: Logger;
  metrics: BrokerMetrics;
  /** Per (process id, working directory) of the calling script, namespaced by member. */
  limiter: TokenBucketLimiter;
  nonces: NonceCache;
  maxSkewMs: number;
  maxBodyBytes: number;
  events: MeshEvents;
}

/** The bucket key of a hook request: the script's (pid, cwd) pair on the member's machine. */
export function hookBucketKey(input: { memberId: string; pid: number; cwd: string }): string {
  return `${input.memberId}\u0000${input.pid}\u0000${input.cwd}`;
}

/** POST /hook/set-status: size cap, validation, signature, rate limit, then the status update. */
export async function handleHook(req: http.IncomingMessage, res: http.ServerResponse, deps: HookDeps): Promise<void> {
  const count = (result: string) => deps.metrics.hookRequests.inc({ result });
  try {
    const read = await readBoundedBody(req, deps.maxBodyBytes);
    if (!read.ok) {
      count(read.reason === "too_large" ? "too_large" : "bad_request");
      if (read.reason === "too_large") answerAndClose(req, res, 413, errorBody("PAYLOAD_TOO_LARGE", `body above ${deps.maxBodyBytes} bytes`));
      else req.socket.destroy();
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(read.body.toString("utf8"));
    } catch {
      count("bad_request");
      return sendJson(res, 400, errorBody("BAD_REQUEST", "body is not JSON"));
    }
    const parsed = ZHookInput.safeParse(json);
    if (!parsed.success) {
      count("bad_request");
      return sendJson(res, 400, errorBody("BAD_REQUEST", "invalid body", { fieldErrors: z.flattenError(parsed.error).fieldErrors }));
    }
    const input = parsed.data;
    const unauthorized = () => (count("unauthorized"), sendJson(res, 401, errorBody("UNAUTHORIZED", "authentication failed")));
    const auth = parseWsAuth(req.headers[WS_AUTH_HEADER]);
    if (!auth || Math.abs(Date.now() - auth.ts) > deps.maxSkewMs) return unauthorized();
    const peer = await findConnectingPeer(deps.db, { meshId: input.meshId, memberId: input.memberId });
    if (!peer || !verifyHookAuth({ meshId: input.meshId, memberId: input.memberId, auth, peerPubkey: peer.peerPubkey, body: read.body })) return unauthorized();
    const nonceKey = `hook|${input.memberId}|${auth.nonce}`;
    if (!deps.nonces.use(nonceKey) || !(await claimNonce(deps.db, nonceKey, 2 * deps.maxSkewMs))) return unauthorized();
    if (peer.role === "observer") {
      // Observers only receive (docs/mesh-api.md).
      count("forbidden");
      return sendJson(res, 403, errorBody("FORBIDDEN", "forbidden_role"));
    }

    const taken = deps.limiter.take(hookBucketKey(input));
    const headers = rateLimitHeaders(deps.limiter, taken, "hook");
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (!taken.allowed) {
      count("rate_limited");
      deps.metrics.rateLimited.inc({ limit: "hook" });
      return sendJson(res, 429, errorBody("TOO_MANY_REQUESTS", "too many status updates from this script; see Retry-After"));
    }
    const text = input.text ?? null;
    const saved = await setMemberStatus(deps.db, { meshId: input.meshId, memberId: input.memberId, status: input.status, text });
    if (!saved) return unauthorized();
    const at = saved.at.toISOString();
    deps.events.publish({ t: "status", meshId: input.meshId, memberId: input.memberId, status: input.status, text, at });
    count("ok");
    deps.log.info({ event: "hook_status", meshId: input.meshId, memberId: input.memberId, status: input.status }, "status set by hook");
    sendJson(res, 200, { memberId: input.memberId, status: input.status, text, at, connected: saved.connected });
  } catch (error) {
    count("unavailable");
    deps.log.error({ event: "hook_failed", ...safeErrorFields(error) }, "status hook failed");
    if (!res.headersSent) sendJson(res, 503, errorBody("SERVICE_UNAVAILABLE", "try again later"));
  }
}
