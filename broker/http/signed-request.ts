// The first steps of a request a peer signs with its key (POST /hook/set-status, POST /leave): bounded
// body, JSON, schema, the `x-mesh-auth` signature over the body, and a nonce used once across nodes.
import type http from "node:http";
import { z } from "zod";
import type { Db } from "../../src/server/core/db";
import { NOT_JSON_ISSUES, validationIssues } from "../../src/server/core/errors";
import { sendJson } from "../../src/server/core/lifecycle";
import { findConnectingPeer } from "../../src/server/services/broker/peer-connection";
import { claimNonce } from "../../src/server/services/broker/used-nonces";
import { VISITOR } from "../../src/server/services/actor";
import { brokerContext } from "../context";
import { parseWsAuth, verifyHookAuth, WS_AUTH_HEADER, type NonceCache } from "../protocol/ws-auth";
import { answerAndClose, errorBody, readBoundedBody } from "./request";

export interface SignedRequestDeps {
  db: Db;
  nonces: NonceCache;
  maxSkewMs: number;
  maxBodyBytes: number;
}

type Peer = NonNullable<Awaited<ReturnType<typeof findConnectingPeer>>>;

/**
 * Reads and authenticates a signed request. Answers the client itself (413, 400, 401) and resolves
 * with the reason for the metrics; else with the input and the signing peer. `purpose` namespaces the
 * nonce, so a request accepted by one route is not accepted by another.
 */
export async function readSignedRequest<S extends z.ZodType<{ meshId: string; memberId: string }>>(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  deps: SignedRequestDeps,
  schema: S,
  purpose: string,
): Promise<
  { ok: true; input: z.output<S>; peer: Peer } | { ok: false; result: "too_large" | "bad_request" | "unauthorized" }
> {
  const read = await readBoundedBody(req, deps.maxBodyBytes);
  if (!read.ok) {
    if (read.reason === "too_large")
      answerAndClose(req, res, 413, errorBody("PAYLOAD_TOO_LARGE", `body above ${deps.maxBodyBytes} bytes`));
    else req.socket.destroy();
    return { ok: false, result: read.reason === "too_large" ? "too_large" : "bad_request" };
  }
  let json: unknown;
  try {
    json = JSON.parse(read.body.toString("utf8"));
  } catch {
    sendJson(res, 400, errorBody("BAD_REQUEST", "body is not JSON", { issues: NOT_JSON_ISSUES }));
    return { ok: false, result: "bad_request" };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    sendJson(res, 400, errorBody("BAD_REQUEST", "invalid body", { issues: validationIssues(parsed.error.issues) }));
    return { ok: false, result: "bad_request" };
  }
  const input = parsed.data;
  const unauthorized = () => (
    sendJson(res, 401, errorBody("UNAUTHORIZED", "authentication failed")),
    { ok: false as const, result: "unauthorized" as const }
  );
  const auth = parseWsAuth(req.headers[WS_AUTH_HEADER]);
  if (!auth || Math.abs(Date.now() - auth.ts) > deps.maxSkewMs) return unauthorized();
  // Until the signature holds, the request is a visitor's.
  const visitor = brokerContext(deps.db, VISITOR);
  const peer = await findConnectingPeer(visitor, { meshId: input.meshId, memberId: input.memberId });
  if (
    !peer ||
    !verifyHookAuth({
      meshId: input.meshId,
      memberId: input.memberId,
      auth,
      peerPubkey: peer.peerPubkey,
      body: read.body,
    })
  )
    return unauthorized();
  const nonceKey = `${purpose}|${input.memberId}|${auth.nonce}`;
  if (!deps.nonces.use(nonceKey) || !(await claimNonce(visitor, { key: nonceKey, ttlMs: 2 * deps.maxSkewMs })))
    return unauthorized();
  return { ok: true, input, peer };
}
