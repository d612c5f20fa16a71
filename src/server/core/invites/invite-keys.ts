import nacl from "tweetnacl";

/** A fresh ed25519 key pair for a mesh owner (32-byte public key, 64-byte secret key that ends with it). */
export function generateOwnerKeyPair(): { publicKey: Uint8Array; secretKey: Uint8Array } {
  return nacl.sign.keyPair();
}

/** The owner key pair derived from a 32-byte seed; for test vectors, never for real meshes. */
export function ownerKeyPairFromSeed(seed: Uint8Array): { publicKey: Uint8Array; secretKey: Uint8Array } {
  return nacl.sign.keyPair.fromSeed(seed);
}

/** A fresh 32-byte mesh root key from the platform's CSPRNG. */
export function generateRootKey(): Uint8Array {
  return nacl.randomBytes(32);
}
