import { sha256Hex } from "../../core/crypto/hash";
import nacl from "tweetnacl";
import { ed25519Verify } from "../../core/crypto/ed25519";
import { toBase64Url, tryFromBase64Url, utf8 } from "../../core/encoding";

// Proof that a joining peer holds the secret key of the peer key it joins with (docs/protocol.md,
// "Join"): an ed25519 signature over the token's hash, both public keys and a time. Required when a
// join would change an existing member's box key (else anyone who knows a member's public peer key
// and an invite of its mesh could redirect the member's direct messages to a key of their own).

/** Accepted clock difference of a proof's time. */
export const JOIN_PROOF_MAX_SKEW_MS = 5 * 60_000;
const SCHEME = "v1";

function proofText(p: { token: string; peerPubkey: string; boxPubkey?: string | null; ts: number }): string {
  const tokenHash = sha256Hex(p.token);
  return `ic-join-v1|${tokenHash}|${p.peerPubkey}|${p.boxPubkey ?? "-"}|${p.ts}`;
}

/** `v1.<ts>.<signature>`: signed by the peer with the secret key of `peerPubkey`. */
export function signJoinProof(p: {
  token: string;
  peerPubkey: string;
  boxPubkey?: string | null;
  secretKey: Uint8Array;
  ts?: number;
}): string {
  const ts = p.ts ?? Date.now();
  const signature = nacl.sign.detached(utf8(proofText({ ...p, ts })), p.secretKey);
  return `${SCHEME}.${ts}.${toBase64Url(signature)}`;
}

/** True when the proof is well formed, recent and signed by `peerPubkey` over this request. */
export function verifyJoinProof(
  proof: string,
  p: { token: string; peerPubkey: string; boxPubkey?: string | null },
  now = Date.now(),
): boolean {
  const [scheme, tsText = "", sigText = ""] = proof.split(".");
  if (scheme !== SCHEME || !/^[0-9]{1,15}$/.test(tsText)) return false;
  const ts = Number(tsText);
  if (Math.abs(now - ts) > JOIN_PROOF_MAX_SKEW_MS) return false;
  const signature = tryFromBase64Url(sigText, 64);
  const key = tryFromBase64Url(p.peerPubkey, 32);
  if (!signature || !key) return false;
  return ed25519Verify(utf8(proofText({ ...p, ts })), signature, key);
}
