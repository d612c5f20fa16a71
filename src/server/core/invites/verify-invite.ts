import { ed25519Verify } from "../crypto/ed25519";
import { tryFromBase64Url } from "../encoding";
import { canonicalInviteBytes, decodeInviteToken } from "./invite-codec";
import type { TInvitePayload } from "./invite-schema";

/** Why a token does not verify, in the order they are checked. */
export type VerifyInviteFailure = "malformed" | "bad_signature" | "expired";

/**
 * The outcome of verifying a token. On failure the payload is there whenever the token decoded
 * (bad_signature, expired), so a caller can show what the link claims; it is then unauthenticated
 * unless the reason is `expired`.
 */
export type VerifyInviteResult =
  { ok: true; payload: TInvitePayload } | { ok: false; reason: VerifyInviteFailure; payload?: TInvitePayload };

/** Options of verifyInviteToken. */
export interface VerifyInviteOptions {
  /** The time to judge expiry against; defaults to the current time. */
  now?: Date;
}

/**
 * The one invite verifier of the product (web preview and broker join): decodes the token, checks the
 * ed25519 signature over the canonical bytes against the payload's own owner_pubkey, then the expiry
 * (expired when expires_at <= now). Never throws, whatever the input.
 */
export function verifyInviteToken(token: unknown, options?: VerifyInviteOptions): VerifyInviteResult {
  const decoded = decodeInviteToken(token);
  if (!decoded.ok) return decoded;
  const { payload } = decoded;
  try {
    const signature = tryFromBase64Url(payload.signature, 64);
    const publicKey = tryFromBase64Url(payload.owner_pubkey, 32);
    // Node's crypto (OpenSSL), not tweetnacl's pure JavaScript: about forty times cheaper, and a check
    // that holds the event loop for microseconds instead of milliseconds (issue 41, attack 2).
    if (!signature || !publicKey || !ed25519Verify(canonicalInviteBytes(payload), signature, publicKey)) {
      return { ok: false, reason: "bad_signature", payload };
    }
  } catch {
    return { ok: false, reason: "bad_signature", payload };
  }
  const now = options?.now;
  // An unusable clock (Invalid Date) fails closed: NaN compares false, so the invite counts as expired.
  const nowMs = now instanceof Date ? now.getTime() : Date.now();
  if (!(Date.parse(payload.expires_at) > nowMs)) return { ok: false, reason: "expired", payload };
  return { ok: true, payload };
}
