import nacl from "tweetnacl";
import { toBase64Url, tryFromBase64Url, utf8 } from "../encoding";

// Proof that a browser device's key is held by the browser that registers it (docs/mesh-api.md, "Browser
// devices"): an ed25519 signature by the new key over the person, the mesh, both public keys and a time,
// as the join proof binds a key to its invite. Without it a signed-in person could register someone
// else's public key as their device. Portable (tweetnacl and the encoding only): the chat page signs
// with it; the server verifies with Node's crypto (register-browser-device.ts).

/** Accepted clock difference of a proof's time (as for a join proof). */
export const DEVICE_PROOF_MAX_SKEW_MS = 5 * 60_000;
const SCHEME = "v1";

/** What a device proof binds. */
export interface DeviceProofFields {
  userId: string;
  meshId: string;
  peerPubkey: string;
  boxPubkey: string;
}

/** The signed text: `ic-browser-device-v1|<userId>|<meshId>|<peerPubkey>|<boxPubkey>|<ts>`. */
export const deviceProofText = (p: DeviceProofFields & { ts: number }) =>
  `ic-browser-device-v1|${p.userId}|${p.meshId}|${p.peerPubkey}|${p.boxPubkey}|${p.ts}`;

/** `v1.<ts>.<signature>`, signed with the secret key (64 bytes) of the new device's `peerPubkey`. */
export function signDeviceProof(p: DeviceProofFields & { secretKey: Uint8Array; ts?: number }): string {
  const ts = p.ts ?? Date.now();
  const signature = nacl.sign.detached(utf8(deviceProofText({ ...p, ts })), p.secretKey);
  return `${SCHEME}.${ts}.${toBase64Url(signature)}`;
}

/** The proof's time and signature, or undefined unless it has exactly the v1 shape. */
export function parseDeviceProof(proof: string): { ts: number; signature: Uint8Array } | undefined {
  const [scheme, tsText = "", sigText = "", ...rest] = proof.split(".");
  if (scheme !== SCHEME || rest.length > 0 || !/^[0-9]{1,15}$/.test(tsText)) return undefined;
  const signature = tryFromBase64Url(sigText, 64);
  return signature ? { ts: Number(tsText), signature } : undefined;
}
