import type http from "node:http";
import type { Db } from "../../src/server/core/db";
import { AppError, ERROR_MAP, NOT_JSON_ISSUES, validationIssues } from "../../src/server/core/errors";
import { decodeInviteToken } from "../../src/server/core/invites";
import { sendJson } from "../../src/server/core/lifecycle";
import type { Logger } from "../../src/server/core/logger";
import type { TrustProxy } from "../../src/server/core/client-address";
import type { RateLimiter } from "../../src/server/core/shared-limit";
import { retryAfterHeader } from "../../src/server/core/token-bucket";
import { VISITOR } from "../../src/server/services/actor";
import { joinMesh, type JoinRefusedWith } from "../../src/server/services/join/join-mesh";
import { ZJoinInput } from "../../src/server/services/join/join-mesh.schema";
import { brokerContext } from "../context";
import type { BrokerMetrics } from "../metrics";
import { answerAndClose, errorBody, readBoundedBody, requestClientAddress, safeErrorFields } from "./request";

/** The message for people of each refusal's code; its status is ERROR_MAP's (docs/protocol.md, "Join"). */
const REFUSAL_MESSAGE: Readonly<Record<JoinRefusedWith, string>> = {
  invite_malformed: "the invite token is not a well-formed invite",
  invite_bad_signature: "the invite signature does not verify",
  invite_not_found: "no such invite",
  invite_expired: "the invite has expired",
  invite_revoked: "the invite was revoked",
  invite_exhausted: "the invite has no uses left",
  mesh_archived: "the mesh is archived",
  peer_banned: "this peer key is banned from the mesh",
  banned: "the account of this token is banned from the mesh",
  key_proof_required:
    "this peer key is a member with another box key: a proof signed with the peer key is needed to change it",
  key_proof_invalid: "the proof does not verify for this peer key and request (or its time is off)",
  account_token_invalid: "the account token is unknown or was revoked: run mesh login again, or join without it",
};

export interface JoinRouteDeps {
  db: Db;
  log: Logger;
  metrics: BrokerMetrics;
  limiter: RateLimiter;
  /** Which forwarded hops to believe (TRUST_PROXY). */
  trustProxy: TrustProxy;
  maxBodyBytes: number;
}

/** POST /join: parse, rate-limit, call the join service, map its result (docs/protocol.md). */
export async function handleJoin(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  deps: JoinRouteDeps,
): Promise<void> {
  const started = performance.now();
  const count = (result: string) => {
    deps.metrics.joinResults.inc({ result });
    deps.metrics.joinSeconds.observe({ result }, (performance.now() - started) / 1000);
  };
  // Each join verifies an ed25519 signature (milliseconds of CPU), so the limit comes before the body.
  const taken = await deps.limiter.take(requestClientAddress(req, deps.trustProxy));
  if (!taken.allowed) {
    count("rate_limited");
    deps.metrics.rateLimited.inc({ limit: "join" });
    answerAndClose(
      req,
      res,
      ERROR_MAP.TOO_MANY_REQUESTS.http,
      errorBody("TOO_MANY_REQUESTS", "too many joins, try again later"),
      retryAfterHeader(taken),
    );
    return;
  }
  const body = await readBoundedBody(req, deps.maxBodyBytes);
  if (!body.ok) {
    if (body.reason === "aborted") return;
    count("too_large");
    answerAndClose(
      req,
      res,
      ERROR_MAP.PAYLOAD_TOO_LARGE.http,
      errorBody("PAYLOAD_TOO_LARGE", `body above ${deps.maxBodyBytes} bytes`),
    );
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(body.body.toString("utf8"));
  } catch {
    count("bad_request");
    sendJson(res, 400, errorBody("BAD_REQUEST", "body is not JSON", { issues: NOT_JSON_ISSUES }));
    return;
  }
  const input = ZJoinInput.safeParse(json);
  if (!input.success) {
    count("bad_request");
    sendJson(
      res,
      400,
      errorBody("BAD_REQUEST", "invalid join request", { issues: validationIssues(input.error.issues) }),
    );
    return;
  }
  try {
    const result = await joinMesh(brokerContext(deps.db, VISITOR), input.data);
    if (!result.ok) {
      count(result.reason);
      deps.log.info({ event: "join_refused", reason: result.reason }, "join refused");
      const refusal = new AppError(result.reason, REFUSAL_MESSAGE[result.reason]);
      sendJson(res, refusal.httpStatus, refusal.toJSON());
      return;
    }
    count("ok");
    const decoded = decodeInviteToken(input.data.token);
    const brokerUrl = decoded.ok ? decoded.payload.broker_url : undefined;
    deps.log.info(
      { event: "joined", meshId: result.meshId, memberId: result.memberId, rejoined: result.rejoined },
      "peer joined",
    );
    const { meshId, meshSlug, memberId, role, rejoined } = result;
    sendJson(res, 200, { meshId, meshSlug, memberId, role, rejoined, ...(brokerUrl ? { brokerUrl } : {}) });
  } catch (error) {
    count("error");
    // Only the error's name and code: a driver message may quote the query's values, the token among them.
    deps.log.error({ event: "join_failed", ...safeErrorFields(error) }, "join failed");
    sendJson(res, 500, errorBody("INTERNAL", "join failed"));
  }
}
