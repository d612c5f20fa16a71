// The Node side of a peer's keys: making them and deriving their pairs through OpenSSL. Everything else of
// the payload encryption is portable (payload-crypto.ts, which the chat page shares).
import nacl from "tweetnacl";
import { ed25519KeyPairFromSeed, x25519KeyPairFromSecretKey } from "../../src/server/core/crypto/ed25519";

export * from "./payload-crypto";

/** A peer's key material: an ed25519 seed (connection proofs, hooks) and an X25519 secret (direct messages). */
export interface PeerSecrets {
  signSeed: Uint8Array;
  boxSecretKey: Uint8Array;
}

/** New random key material for a peer. */
export function generatePeerSecrets(): PeerSecrets {
  return { signSeed: nacl.randomBytes(32), boxSecretKey: nacl.box.keyPair().secretKey };
}

/** The key pairs of a peer's secrets (public halves are what `/join` and `peers` carry). */
export function peerKeyPairs(secrets: PeerSecrets): { sign: nacl.SignKeyPair; box: nacl.BoxKeyPair } {
  // Node's OpenSSL derives the same pairs as tweetnacl, in a fraction of the time.
  return { sign: ed25519KeyPairFromSeed(secrets.signSeed), box: x25519KeyPairFromSecretKey(secrets.boxSecretKey) };
}
