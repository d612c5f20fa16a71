// Joining a mesh from a link: decode the invite, make (or reuse) this peer's keys, POST /join, store.
import os from "node:os";
import { answerOptions, MeshClientError } from "./mesh-client-error";
import { z } from "zod";
import { isVouchedBroker } from "../../src/server/core/broker-origin";
import { fromBase64Url, toBase64Url } from "../../src/server/core/encoding";
import { INVITE_TOKEN_MAX_LENGTH } from "../../src/server/core/invites";
import { signJoinProof } from "../../src/server/services/join/join-proof";
import { vouchedBrokers } from "./account";
import { ConfigStore, type TAccount, type TMeshConfig } from "./config-store";
import { brokerHttpUrl, readJoinLink, shortJoinLinkOf } from "./join-link";
import { generatePeerSecrets, peerKeyPairs, type PeerSecrets } from "./mesh-crypto";
import { postJson, retryAfterOf, type JsonAnswer } from "./post-json";

const ZJoinAnswer = z.object({
  meshId: z.string(),
  meshSlug: z.string(),
  memberId: z.string(),
  role: z.string(),
  rejoined: z.boolean(),
  brokerUrl: z
    .string()
    .regex(/^wss?:\/\//)
    .optional(),
});

const ZCodeAnswer = z.object({ token: z.string().min(1).max(INVITE_TOKEN_MAX_LENGTH) });

/** The product's one error body. */
export const ZErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** The broker refused the join (a reason code of docs/protocol.md) or could not be reached. */
export class JoinRefusedError extends MeshClientError {
  constructor(code: string, message: string, status?: number, retryAfterSeconds?: number) {
    super(code, message, answerOptions(code, status, retryAfterSeconds));
    this.name = "JoinRefusedError";
  }
}

export interface JoinOptions {
  displayName?: string;
  /** Groups to join (a message can go to `@group`). */
  groups?: readonly string[];
  store?: ConfigStore;
  /**
   * The account of `mesh login`: the member is then the user's (docs/cli.md). Its token is sent only to a
   * broker its web app vouches for; another broker's link is refused with `broker_not_vouched`.
   */
  account?: Pick<TAccount, "webUrl" | "token">;
}

export interface JoinOutcome {
  config: TMeshConfig;
  rejoined: boolean;
  file: string;
}

/** The name a peer shows when none is given: the machine's host name, within the 80 characters allowed. */
export function defaultDisplayName(): string {
  return (os.hostname().trim() || "peer").slice(0, 80);
}

/**
 * Joins the mesh of a link. A mesh already joined from this config directory rejoins with the same
 * keys (the broker answers `rejoined`, and no invite use is counted). Nothing is written unless the
 * broker accepted the join.
 */
export async function joinWithLink(link: string, opts: JoinOptions = {}): Promise<JoinOutcome> {
  const { token, invite } = readJoinLink(await expandShortLink(link));
  const store = opts.store ?? new ConfigStore();
  const displayName = (opts.displayName ?? defaultDisplayName()).trim();
  if (displayName.length < 1 || displayName.length > 80)
    throw new JoinRefusedError("BAD_REQUEST", "the display name must be 1 to 80 characters");

  // The link names the broker, and anyone can sign a link: the account's token goes only to a broker
  // the account's own web app vouches for, asked before anything is sent (issue 41, attack 1).
  if (opts.account && !isVouchedBroker(invite.broker_url, await vouchedBrokers(opts.account)))
    throw new JoinRefusedError(
      "broker_not_vouched",
      `the link's broker ${invite.broker_url} is not one your account's web app (${opts.account.webUrl}) vouches for, so your account's token was not sent to it`,
    );

  const existing = store.get(invite.mesh_id);
  const secrets: PeerSecrets = existing
    ? { signSeed: fromBase64Url(existing.signSeed, 32), boxSecretKey: fromBase64Url(existing.boxSecretKey, 32) }
    : generatePeerSecrets();
  const pairs = peerKeyPairs(secrets);
  const url = brokerHttpUrl(invite.broker_url, "/join");
  const peerPubkey = toBase64Url(pairs.sign.publicKey);
  const boxPubkey = toBase64Url(pairs.box.publicKey);
  // Proves this client holds the peer key (the broker needs it to change a member's box key).
  const proof = signJoinProof({ token, peerPubkey, boxPubkey, secretKey: pairs.sign.secretKey });
  const body = {
    token,
    peerPubkey,
    boxPubkey,
    displayName,
    proof,
    ...(opts.account ? { accountToken: opts.account.token } : {}),
    ...(opts.groups?.length ? { groups: opts.groups } : {}),
  };

  let res: JsonAnswer;
  try {
    res = await postJson(url, JSON.stringify(body));
  } catch (error) {
    throw new JoinRefusedError("UNREACHABLE", `cannot reach the broker at ${url}: ${(error as Error).message}`);
  }
  if (res.status !== 200) {
    const parsed = ZErrorBody.safeParse(res.json);
    throw new JoinRefusedError(
      parsed.success ? parsed.data.error.code : `HTTP_${res.status}`,
      parsed.success ? parsed.data.error.message : `the broker answered HTTP ${res.status}`,
      res.status,
      retryAfterOf(res.headers),
    );
  }
  const answer = ZJoinAnswer.safeParse(res.json);
  if (!answer.success || answer.data.meshId !== invite.mesh_id)
    throw new JoinRefusedError("BAD_ANSWER", "the broker's answer to the join is not what protocol v1 says");

  const config: TMeshConfig = {
    version: 1,
    meshId: answer.data.meshId,
    meshSlug: answer.data.meshSlug,
    memberId: answer.data.memberId,
    role: answer.data.role,
    // A rejoin keeps the member row as it is, name included.
    displayName: answer.data.rejoined && existing ? existing.displayName : displayName,
    brokerUrl: answer.data.brokerUrl ?? invite.broker_url,
    joinedAt: existing && answer.data.rejoined ? existing.joinedAt : new Date().toISOString(),
    meshRootKey: invite.mesh_root_key,
    signSeed: toBase64Url(secrets.signSeed),
    boxSecretKey: toBase64Url(secrets.boxSecretKey),
  };
  const file = store.save(config);
  return { config, rejoined: answer.data.rejoined, file };
}

/**
 * The token of a short link (`https://<host>/join/<code>`), asked of that link's own web app (the
 * address the person gave, as a browser would open it); any other link comes back as it is. The token
 * is then checked like any other (signature, then the broker decides).
 */
async function expandShortLink(link: string): Promise<string> {
  const short = shortJoinLinkOf(link);
  if (!short) return link;
  let res: JsonAnswer;
  try {
    res = await postJson(`${short.webOrigin}/api/public/invite-code`, JSON.stringify({ code: short.code }));
  } catch (error) {
    throw new JoinRefusedError(
      "UNREACHABLE",
      `cannot reach the web app at ${short.webOrigin}: ${(error as Error).message}`,
    );
  }
  if (res.status === 404)
    throw new JoinRefusedError(
      "invite_not_found",
      "the short link leads to no usable invite (unknown, expired, used up or revoked); ask for a new one",
      404,
    );
  if (res.status !== 200) {
    const parsed = ZErrorBody.safeParse(res.json);
    throw new JoinRefusedError(
      parsed.success ? parsed.data.error.code : `HTTP_${res.status}`,
      parsed.success ? parsed.data.error.message : `the web app answered HTTP ${res.status}`,
      res.status,
      retryAfterOf(res.headers),
    );
  }
  const answer = ZCodeAnswer.safeParse(res.json);
  if (!answer.success)
    throw new JoinRefusedError(
      "BAD_ANSWER",
      "the web app's answer to the short link is not an invite token (is this the mesh web app?)",
    );
  return answer.data.token;
}
