import { createHash, randomBytes } from "node:crypto";
import { ed25519Sign, ed25519Verify } from "../../src/server/core/crypto/ed25519";
import { toBase64Url, tryFromBase64Url, utf8 } from "../../src/server/core/encoding";
import { wsAuthString } from "./ws-subprotocol";

export { wsAuthString };

/** WebSocket path of protocol v1 (docs/protocol.md). */
export const WS_PATH = "/ws";
/** Request header that carries the connection proof. */
export const WS_AUTH_HEADER = "x-mesh-auth";
const SCHEME = "v1";
const HOOK_CONTEXT = "ic-hook-v1";

interface AuthParts {
  meshId: string;
  memberId: string;
  ts: number;
  nonce: string;
}

/** The bytes a hook signs: as for a connection under its own context, plus the hex SHA-256 of the body. */
export function hookAuthString(p: AuthParts & { bodySha256: string }): string {
  return `${HOOK_CONTEXT}|${p.meshId}|${p.memberId}|${p.ts}|${p.nonce}|${p.bodySha256}`;
}

/** Hex SHA-256 of a request body, as the hook signature covers it. */
export function bodyDigest(body: Uint8Array | string): string {
  return createHash("sha256").update(body).digest("hex");
}

function signWith(
  secretKey: Uint8Array,
  text: (p: { ts: number; nonce: string }) => string,
  opts: { ts?: number; nonce?: string },
): string {
  const ts = opts.ts ?? Date.now();
  const nonce = opts.nonce ?? toBase64Url(randomBytes(16));
  const sig = ed25519Sign(utf8(text({ ts, nonce })), secretKey);
  return `${SCHEME}.${ts}.${nonce}.${toBase64Url(sig)}`;
}

/** Builds the `x-mesh-auth` value `v1.<ts>.<nonce>.<signature>` with the peer's 64-byte ed25519 secret key. */
export function signWsAuth(p: {
  meshId: string;
  memberId: string;
  secretKey: Uint8Array;
  ts?: number;
  nonce?: string;
}): string {
  return signWith(
    p.secretKey,
    ({ ts, nonce }) => wsAuthString({ meshId: p.meshId, memberId: p.memberId, ts, nonce }),
    p,
  );
}

/** Builds the `x-mesh-auth` value of a `POST /hook/set-status` request for exactly this body. */
export function signHookAuth(p: {
  meshId: string;
  memberId: string;
  secretKey: Uint8Array;
  body: Uint8Array | string;
  ts?: number;
  nonce?: string;
}): string {
  const bodySha256 = bodyDigest(p.body);
  return signWith(
    p.secretKey,
    ({ ts, nonce }) => hookAuthString({ meshId: p.meshId, memberId: p.memberId, ts, nonce, bodySha256 }),
    p,
  );
}

export interface ParsedWsAuth {
  ts: number;
  nonce: string;
  signature: Uint8Array;
}

/** Parses an `x-mesh-auth` value; undefined unless it has exactly the v1 shape. */
export function parseWsAuth(value: unknown): ParsedWsAuth | undefined {
  if (typeof value !== "string" || value.length > 200) return undefined;
  const parts = value.split(".");
  if (parts.length !== 4 || parts[0] !== SCHEME) return undefined;
  const [, tsText = "", nonce = "", sigText = ""] = parts;
  if (!/^[0-9]{1,15}$/.test(tsText)) return undefined;
  if (tryFromBase64Url(nonce, 16) === undefined) return undefined;
  const signature = tryFromBase64Url(sigText, 64);
  if (!signature) return undefined;
  return { ts: Number(tsText), nonce, signature };
}

/** True when the signature verifies with the peer's public key (base64url, 32 bytes). */
export function verifyWsAuth(p: { meshId: string; memberId: string; auth: ParsedWsAuth; peerPubkey: string }): boolean {
  return verifySigned(
    wsAuthString({ meshId: p.meshId, memberId: p.memberId, ts: p.auth.ts, nonce: p.auth.nonce }),
    p.auth,
    p.peerPubkey,
  );
}

/** True when a hook request's signature verifies for this body. */
export function verifyHookAuth(p: {
  meshId: string;
  memberId: string;
  auth: ParsedWsAuth;
  peerPubkey: string;
  body: Uint8Array;
}): boolean {
  const text = hookAuthString({
    meshId: p.meshId,
    memberId: p.memberId,
    ts: p.auth.ts,
    nonce: p.auth.nonce,
    bodySha256: bodyDigest(p.body),
  });
  return verifySigned(text, p.auth, p.peerPubkey);
}

function verifySigned(text: string, auth: ParsedWsAuth, peerPubkey: string): boolean {
  const key = tryFromBase64Url(peerPubkey, 32);
  if (!key) return false;
  return ed25519Verify(utf8(text), auth.signature, key);
}

/**
 * Nonces seen within the accepted clock window, so a captured header cannot open a second connection
 * on this node. Entries outlive the window on both sides, after which the timestamp check refuses them.
 */
export class NonceCache {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the nonce; false when it was already used and has not yet expired. */
  use(key: string): boolean {
    const now = this.now();
    if (this.seen.size > 1000) this.sweep(now);
    const until = this.seen.get(key);
    if (until !== undefined && until > now) return false;
    this.seen.set(key, now + 2 * this.windowMs);
    return true;
  }

  private sweep(now: number): void {
    for (const [key, until] of this.seen) if (until <= now) this.seen.delete(key);
  }

  get size(): number {
    return this.seen.size;
  }
}
