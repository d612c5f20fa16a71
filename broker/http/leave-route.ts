import type http from "node:http";
import { z } from "zod";
import { AppError } from "../../src/server/core/errors";
import { sendJson } from "../../src/server/core/lifecycle";
import type { Logger } from "../../src/server/core/logger";
import { leaveAsPeer } from "../../src/server/services/meshes/leave-mesh";
import type { TrustProxy } from "../../src/server/core/client-address";
import type { RateLimiter } from "../../src/server/core/shared-limit";
import { retryAfterHeader } from "../../src/server/core/token-bucket";
import { brokerContext, peerActor } from "../context";
import { answerAndClose, errorBody, requestClientAddress, safeErrorFields } from "./request";
import { readSignedRequest, type SignedRequestDeps } from "./signed-request";

/** Body of `POST /leave` (docs/protocol.md, "Leave"); `action` keeps a body of another route from matching. */
export const ZLeaveInput = z.strictObject({ action: z.literal("leave"), meshId: z.uuid(), memberId: z.uuid() });

export interface LeaveDeps extends SignedRequestDeps {
  log: Logger;
  /** Per client address, before any work (the join limiter: leaving is as rare as joining). */
  limiter: RateLimiter;
  trustProxy: TrustProxy;
}

/** POST /leave: a peer ends its own membership (`mesh leave`), signed with its key like a hook request. */
export async function handleLeave(req: http.IncomingMessage, res: http.ServerResponse, deps: LeaveDeps): Promise<void> {
  try {
    const taken = await deps.limiter.take(requestClientAddress(req, deps.trustProxy));
    if (!taken.allowed) {
      return answerAndClose(
        req,
        res,
        429,
        errorBody("TOO_MANY_REQUESTS", "too many requests, try again later"),
        retryAfterHeader(taken),
      );
    }
    const signed = await readSignedRequest(req, res, deps, ZLeaveInput, "leave");
    if (!signed.ok) return;
    const left = await leaveAsPeer(brokerContext(deps.db, peerActor(signed.peer)));
    deps.log.info({ event: "peer_left", meshId: left.meshId, memberId: left.memberId }, "peer left its mesh");
    sendJson(res, 200, { meshId: left.meshId, memberId: left.memberId, revokedAt: left.revokedAt.toISOString() });
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND")
      return sendJson(res, 404, errorBody("NOT_FOUND", error.message));
    deps.log.error({ event: "leave_failed", ...safeErrorFields(error) }, "leave failed");
    if (!res.headersSent) sendJson(res, 503, errorBody("SERVICE_UNAVAILABLE", "try again later"));
  }
}
