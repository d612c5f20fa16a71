import { randomBytes } from "node:crypto";
import nacl from "tweetnacl";
import { toBase64Url, tryFromBase64Url, utf8 } from "../../src/server/core/encoding";

/** WebSocket path of protocol v1 (docs/protocol.md). */
export const WS_PATH = "/ws";
/** Request header that carries the connection proof. */
export const WS_AUTH_HEADER = "x-mesh-auth";
const SCHEME = "v1";
const CONTEXT = "ic-ws-v1";

/** The bytes a peer signs to open a connection: context, mesh, member, timestamp and nonce, joined by `|`. */
export function wsAuthString(p: { meshId: string; memberId: string; ts: number; nonce: string }): string {
  return `${CONTEXT}|${p.meshId}|${p.memberId}|${p.ts}|${p.nonce}`;
}

/** Builds the `x-mesh-auth` value `v1.<ts>.<nonce>.<signature>` with the peer's 64-byte ed25519 secret key. */
export function signWsAuth(p: { meshId: string; memberId: string; secretKey: Uint8Array; ts?: number; nonce?: string }): string {
  const ts = p.ts ?? Date.now();
  const nonce = p.nonce ?? toBase64Url(randomBytes(16));
  const sig = nacl.sign.detached(utf8(wsAuthString({ meshId: p.meshId, memberId: p.memberId, ts, nonce })), p.secretKey);
  return `${SCHEME}.${ts}.${nonce}.${toBase64Url(sig)}`;
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
  const key = tryFromBase64Url(p.peerPubkey, 32);
  if (!key) return false;
  const message = utf8(wsAuthString({ meshId: p.meshId, memberId: p.memberId, ts: p.auth.ts, nonce: p.auth.nonce }));
  return nacl.sign.detached.verify(message, p.auth.signature, key);
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
