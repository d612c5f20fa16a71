import type http from "node:http";
import { AppError, ERROR_MAP } from "../../src/server/core/errors";
import { sendJson } from "../../src/server/core/lifecycle";
import type { Logger } from "../../src/server/core/logger";
import type { TrustProxy } from "../../src/server/core/client-address";
import type { RateLimiter } from "../../src/server/core/shared-limit";
import { rateLimitHeaders, retryAfterHeader } from "../../src/server/core/token-bucket";
import { createSessionMember } from "../../src/server/services/sessions/create-session-member";
import {
  ZCreateSessionInput,
  type SessionLimits,
} from "../../src/server/services/sessions/create-session-member.schema";
import { brokerContext, peerActor } from "../context";
import { answerAndClose, errorBody, requestClientAddress, safeErrorFields } from "./request";
import { readSignedRequest, type SignedRequestDeps } from "./signed-request";

export interface SessionDeps extends SignedRequestDeps {
  log: Logger;
  /** Per client address, before any work (the join limiter: a new session is as rare as a join). */
  limiter: RateLimiter;
  /** Per parent member, whatever address it comes from (SESSION_CREATE_RATE_*). */
  parentLimiter: RateLimiter;
  trustProxy: TrustProxy;
  limits: SessionLimits;
}

const MESSAGES: Record<string, string> = {
  session_of_session: "a session member cannot make session members; the machine's member does",
  key_proof_invalid: "the proof does not verify for this mesh, parent and keys, or its time is off",
  peer_banned: "this peer key is banned from the mesh",
  banned: "this person is banned from the mesh",
  key_in_use: "this peer key is already another member's",
  session_cap: "this member already holds its limit of live session members; end one first",
};

/**
 * POST /session (docs/protocol.md, "Session members"): a machine's member, signing with its key as for
 * the status hook, makes the member of one assistant session with the session's own keys.
 */
export async function handleSession(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  deps: SessionDeps,
): Promise<void> {
  try {
    const taken = await deps.limiter.take(requestClientAddress(req, deps.trustProxy));
    if (!taken.allowed)
      return answerAndClose(
        req,
        res,
        429,
        errorBody("TOO_MANY_REQUESTS", "too many requests, try again later"),
        retryAfterHeader(taken),
      );
    const signed = await readSignedRequest(req, res, deps, ZCreateSessionInput, "session");
    if (!signed.ok) return;
    // Every creation takes a token of the parent's own bucket, refused ones too: no address or key
    // pair lets one member make members faster than this.
    const parentTaken = await deps.parentLimiter.take(signed.peer.memberId);
    for (const [name, value] of Object.entries(rateLimitHeaders(deps.parentLimiter, parentTaken, "session_parent")))
      res.setHeader(name, value);
    if (!parentTaken.allowed)
      return sendJson(
        res,
        429,
        errorBody("TOO_MANY_REQUESTS", "too many new sessions for this member; see Retry-After"),
      );
    const ctx = brokerContext(deps.db, peerActor(signed.peer));
    const made = await createSessionMember(ctx, { ...signed.input, limits: deps.limits });
    if (!made.ok) {
      // The parent ended between the signature check and the creation: the same answer as a bad signature.
      if (made.reason === "ended") return sendJson(res, 401, errorBody("UNAUTHORIZED", "authentication failed"));
      return sendJson(res, ERROR_MAP[made.reason].http, errorBody(made.reason, MESSAGES[made.reason] ?? made.reason));
    }
    deps.log.info(
      {
        event: made.rejoined ? "session_found" : "session_created",
        meshId: signed.peer.meshId,
        memberId: made.memberId,
        parentMemberId: made.parentMemberId,
        evicted: made.evicted.length,
      },
      "session member",
    );
    sendJson(res, 200, {
      meshId: signed.peer.meshId,
      meshSlug: made.meshSlug,
      memberId: made.memberId,
      parentMemberId: made.parentMemberId,
      role: made.role,
      displayName: made.displayName,
      rejoined: made.rejoined,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND")
      return sendJson(res, 404, errorBody("NOT_FOUND", error.message));
    deps.log.error({ event: "session_failed", ...safeErrorFields(error) }, "session member not made");
    if (!res.headersSent) sendJson(res, 503, errorBody("SERVICE_UNAVAILABLE", "try again later"));
  }
}
