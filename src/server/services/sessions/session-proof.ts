import nacl from "tweetnacl";
import { ed25519Verify } from "../../core/crypto/ed25519";
import { toBase64Url, tryFromBase64Url, utf8 } from "../../core/encoding";

// Proof that the new session member's key is held by whoever asks for it (docs/protocol.md, "Session
// members"): an ed25519 signature by the new key over the mesh, the parent, both public keys and a time.
// Without it a parent could register a stranger's public key as its session and so take the key's
// place in the mesh before its owner joins with it.

/** Accepted clock difference of a proof's time (as for a join proof). */
export const SESSION_PROOF_MAX_SKEW_MS = 5 * 60_000;
const SCHEME = "v1";

interface ProofFields {
  meshId: string;
  parentMemberId: string;
  peerPubkey: string;
  boxPubkey: string;
}

const proofText = (p: ProofFields & { ts: number }) =>
  `ic-session-v1|${p.meshId}|${p.parentMemberId}|${p.peerPubkey}|${p.boxPubkey}|${p.ts}`;

/** `v1.<ts>.<signature>`, signed with the secret key of the new member's `peerPubkey`. */
export function signSessionProof(p: ProofFields & { secretKey: Uint8Array; ts?: number }): string {
  const ts = p.ts ?? Date.now();
  const signature = nacl.sign.detached(utf8(proofText({ ...p, ts })), p.secretKey);
  return `${SCHEME}.${ts}.${toBase64Url(signature)}`;
}

/** True when the proof is well formed, recent, and signed by `peerPubkey` over exactly these fields. */
export function verifySessionProof(proof: string, p: ProofFields, now = Date.now()): boolean {
  const [scheme, tsText = "", sigText = ""] = proof.split(".");
  if (scheme !== SCHEME || !/^[0-9]{1,15}$/.test(tsText)) return false;
  const ts = Number(tsText);
  if (Math.abs(now - ts) > SESSION_PROOF_MAX_SKEW_MS) return false;
  const signature = tryFromBase64Url(sigText, 64);
  const key = tryFromBase64Url(p.peerPubkey, 32);
  if (!signature || !key) return false;
  return ed25519Verify(utf8(proofText({ ...p, ts })), signature, key);
}
