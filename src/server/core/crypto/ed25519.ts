import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { TtlCache } from "../ttl-cache";

// Ed25519 through Node's OpenSSL: the same signatures as tweetnacl's (Ed25519 is deterministic), about
// forty times faster to verify, which is what a connect storm costs the broker per attempt. Keys stay
// in tweetnacl's raw form (32-byte public key, 64-byte secret key = seed ‖ public key).

const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const X25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b656e04220420", "hex");
const publicKeys = new TtlCache<string, KeyObject>({ maxEntries: 10_000, ttlMs: Infinity });

function publicKeyObject(raw: Uint8Array): KeyObject {
  const id = Buffer.from(raw).toString("base64");
  let key = publicKeys.get(id);
  if (!key) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: "der", type: "spki" });
    publicKeys.set(id, key);
  }
  return key;
}

/** True when `signature` (64 bytes) is `publicKey`'s (32 bytes) over `message`; false for malformed input. */
export function ed25519Verify(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    return verify(null, message, publicKeyObject(publicKey), signature);
  } catch {
    return false;
  }
}

/** The signature of `message` with a tweetnacl secret key (64 bytes; its first 32 are the seed). */
export function ed25519Sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  if (secretKey.length !== 64) throw new TypeError("ed25519 secret key must be 64 bytes");
  const key = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, secretKey.subarray(0, 32)]),
    format: "der",
    type: "pkcs8",
  });
  return new Uint8Array(sign(null, message, key));
}

/** tweetnacl's `sign.keyPair.fromSeed`, through OpenSSL: `{ publicKey (32), secretKey (64 = seed ‖ public) }`. */
export function ed25519KeyPairFromSeed(seed: Uint8Array): { publicKey: Uint8Array; secretKey: Uint8Array } {
  if (seed.length !== 32) throw new TypeError("ed25519 seed must be 32 bytes");
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
  const publicKey = new Uint8Array(
    createPublicKey(privateKey).export({ format: "der", type: "spki" }).subarray(SPKI_PREFIX.length),
  );
  const secretKey = new Uint8Array(64);
  secretKey.set(seed);
  secretKey.set(publicKey, 32);
  return { publicKey, secretKey };
}

/** tweetnacl's `box.keyPair.fromSecretKey` (X25519), through OpenSSL. */
export function x25519KeyPairFromSecretKey(secretKey: Uint8Array): { publicKey: Uint8Array; secretKey: Uint8Array } {
  if (secretKey.length !== 32) throw new TypeError("x25519 secret key must be 32 bytes");
  const privateKey = createPrivateKey({
    key: Buffer.concat([X25519_PKCS8_PREFIX, secretKey]),
    format: "der",
    type: "pkcs8",
  });
  const publicKey = new Uint8Array(createPublicKey(privateKey).export({ format: "der", type: "spki" }).subarray(12));
  return { publicKey, secretKey: Uint8Array.from(secretKey) };
}
