import type http from "node:http";
import { z } from "zod";
import type { Db } from "../../src/server/core/db";
import { ERROR_MAP } from "../../src/server/core/errors";
import { sendJson } from "../../src/server/core/lifecycle";
import type { Logger } from "../../src/server/core/logger";
import type { RateLimiter } from "../../src/server/core/shared-limit";
import { rateLimitHeaders } from "../../src/server/core/token-bucket";
import { setMemberStatus } from "../../src/server/services/broker/peer-connection";
import type { MeshEvents } from "../cluster/events";
import { brokerContext, peerActor } from "../context";
import type { BrokerMetrics } from "../metrics";
import { ZStatus, ZStatusText } from "../protocol/frames";
import type { NonceCache } from "../protocol/ws-auth";
import { errorBody, safeErrorFields } from "./request";
import { readSignedRequest } from "./signed-request";

/** Body of `POST /hook/set-status` (docs/protocol.md, "Status hook"). */
export const ZHookInput = z.strictObject({
  meshId: z.uuid(),
  memberId: z.uuid(),
  pid: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
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
  limiter: RateLimiter;
  /** Per member, whatever pid and cwd it claims (the pair is the caller's to choose). */
  memberLimiter: RateLimiter;
  nonces: NonceCache;
  maxSkewMs: number;
  maxBodyBytes: number;
  events: MeshEvents;
  /** A status set here holds for this long unless renewed (STATUS_LEASE_MS). */
  statusLeaseMs: number;
}

/** The bucket key of a hook request: the script's (pid, cwd) pair on the member's machine. */
export function hookBucketKey(input: { memberId: string; pid: number; cwd: string }): string {
  return `${input.memberId}\u0000${input.pid}\u0000${input.cwd}`;
}

/** POST /hook/set-status: size cap, validation, signature, rate limit, then the status update. */
export async function handleHook(req: http.IncomingMessage, res: http.ServerResponse, deps: HookDeps): Promise<void> {
  const count = (result: string) => deps.metrics.hookRequests.inc({ result });
  try {
    const signed = await readSignedRequest(req, res, deps, ZHookInput, "hook");
    if (!signed.ok) return count(signed.result);
    const { input, peer } = signed;
    const unauthorized = () => (
      count("unauthorized"),
      sendJson(res, 401, errorBody("UNAUTHORIZED", "authentication failed"))
    );
    if (peer.role === "observer") {
      // Observers only receive (docs/mesh-api.md).
      count("forbidden");
      return sendJson(res, 403, errorBody("FORBIDDEN", "forbidden_role"));
    }

    // The member's bucket first: a refused update then takes no script bucket (no rate_limits row per
    // made-up pid). Then the script's own, so one busy script does not use up its member's share.
    const byMember = await deps.memberLimiter.take(input.memberId);
    const taken = byMember.allowed ? await deps.limiter.take(hookBucketKey(input)) : byMember;
    const [limiter, policy] = byMember.allowed ? [deps.limiter, "hook"] : [deps.memberLimiter, "hook_member"];
    const headers = rateLimitHeaders(limiter, taken, policy);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (!taken.allowed) {
      count("rate_limited");
      deps.metrics.rateLimited.inc({ limit: policy });
      const from = byMember.allowed ? "this script" : "this member";
      return sendJson(
        res,
        ERROR_MAP.rate_limited.http,
        errorBody("TOO_MANY_REQUESTS", `too many status updates from ${from}; see Retry-After`),
      );
    }
    const text = input.text ?? null;
    const saved = await setMemberStatus(brokerContext(deps.db, peerActor(peer)), {
      status: input.status,
      text,
      leaseMs: deps.statusLeaseMs,
    });
    if (!saved) return unauthorized();
    const at = saved.at.toISOString();
    deps.events.publish({
      t: "status",
      meshId: input.meshId,
      memberId: input.memberId,
      status: input.status,
      text,
      at,
    });
    count("ok");
    deps.log.info(
      { event: "hook_status", meshId: input.meshId, memberId: input.memberId, status: input.status },
      "status set by hook",
    );
    sendJson(res, 200, { memberId: input.memberId, status: input.status, text, at, connected: saved.connected });
  } catch (error) {
    count("unavailable");
    deps.log.error({ event: "hook_failed", ...safeErrorFields(error) }, "status hook failed");
    if (!res.headersSent) sendJson(res, 503, errorBody("SERVICE_UNAVAILABLE", "try again later"));
  }
}
