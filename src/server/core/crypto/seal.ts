import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * The keys that seal secrets at rest, parsed from SECRETS_KEYS (docs/secrets.md). Only ids are visible:
 * the key material lives in a module-private map, so logging or serialising a ring cannot leak it.
 */
export interface KeyRing {
  /** Id of the first key, the one that seals. */
  readonly primaryId: string;
  /** Every key id, in configured order. */
  readonly ids: readonly string[];
}

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const BASE64_KEY = /^(?:[A-Za-z0-9+/]{43}=?|[A-Za-z0-9_-]{43})$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const material = new WeakMap<KeyRing, ReadonlyMap<string, Buffer>>();

function ringError(message: string): Error {
  return new Error(
    `SECRETS_KEYS ${message} (expected "id:<base64 of 32 bytes>[,id:<base64>...]", see docs/secrets.md)`,
  );
}

/** Parses a key ring like `k2:<base64>,k1:<base64>` (first seals, all open); throws an Error naming SECRETS_KEYS, never quoting a key. */
export function parseKeyRing(value: string): KeyRing {
  if (typeof value !== "string" || value.trim() === "") throw ringError("is empty");
  const keys = new Map<string, Buffer>();
  value.split(",").forEach((raw, index) => {
    const entry = raw.trim();
    const colon = entry.indexOf(":");
    const id = colon < 0 ? "" : entry.slice(0, colon);
    const encoded = colon < 0 ? "" : entry.slice(colon + 1);
    if (!KEY_ID.test(id)) throw ringError(`entry ${index + 1} needs an id of letters, digits, "_" or "-" before ":"`);
    if (keys.has(id)) throw ringError(`lists key id "${id}" twice`);
    // Node's base64 decoder reads both alphabets; the pattern has already refused anything else.
    const key = BASE64_KEY.test(encoded) ? Buffer.from(encoded, "base64") : undefined;
    if (!key || key.length !== KEY_BYTES) throw ringError(`key "${id}" is not base64 of exactly ${KEY_BYTES} bytes`);
    keys.set(id, key);
  });
  const ids = Object.freeze([...keys.keys()]);
  const ring: KeyRing = Object.freeze({ primaryId: ids[0] as string, ids });
  material.set(ring, keys);
  return ring;
}

function keyOf(ring: KeyRing, id: string): Buffer {
  const key = material.get(ring)?.get(id);
  if (!key) throw new Error(`sealed value uses key id "${id}", which is not in SECRETS_KEYS`);
  return key;
}

/**
 * Encrypts with AES-256-GCM under the ring's first key: `v1.<keyId>.<iv>.<ciphertext+tag>` (base64url).
 * The aad binds the value to its place (e.g. `mesh:<id>:root-key`); undefined and "" are the same.
 */
export function seal(ring: KeyRing, plaintext: Uint8Array | string, aad?: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyOf(ring, ring.primaryId), iv, { authTagLength: TAG_BYTES });
  if (aad) cipher.setAAD(Buffer.from(aad, "utf8"));
  const data = typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext;
  const body = Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${ring.primaryId}.${iv.toString("base64url")}.${body.toString("base64url")}`;
}

function parseSealed(sealed: string): { keyId: string; iv: Buffer; body: Buffer } {
  const parts = typeof sealed === "string" ? sealed.split(".") : [];
  const [version, keyId, iv, body] = parts;
  if (
    parts.length !== 4 ||
    version !== VERSION ||
    !keyId ||
    !KEY_ID.test(keyId) ||
    iv === undefined ||
    body === undefined
  ) {
    throw new Error("sealed value is not in the v1.<keyId>.<iv>.<ciphertext> format");
  }
  if (!BASE64URL.test(iv) || !BASE64URL.test(body)) throw new Error("sealed value is not base64url");
  const ivBytes = Buffer.from(iv, "base64url");
  const bodyBytes = Buffer.from(body, "base64url");
  if (ivBytes.length !== IV_BYTES || bodyBytes.length < TAG_BYTES)
    throw new Error("sealed value has a bad IV or is too short");
  return { keyId, iv: ivBytes, body: bodyBytes };
}

/** Decrypts with whichever ring key sealed the value; throws on a bad format, an unknown key id, tampering or a different aad. */
export function open(ring: KeyRing, sealed: string, aad?: string): Buffer {
  const { keyId, iv, body } = parseSealed(sealed);
  const decipher = createDecipheriv("aes-256-gcm", keyOf(ring, keyId), iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  if (aad) decipher.setAAD(Buffer.from(aad, "utf8"));
  const plaintext = decipher.update(body.subarray(0, body.length - TAG_BYTES));
  try {
    // GCM hands out plaintext before the tag is checked; it is wiped below whatever final() says.
    return Buffer.concat([plaintext, decipher.final()]);
  } catch {
    throw new Error("sealed value failed authentication (tampered, wrong key or wrong associated data)");
  } finally {
    plaintext.fill(0);
  }
}

/** True when the value was sealed with a key other than the ring's first, so a rotation should re-seal it; throws on a bad format. */
export function needsReseal(ring: KeyRing, sealed: string): boolean {
  return parseSealed(sealed).keyId !== ring.primaryId;
}

/** Opens a value and seals it again under the ring's first key, with the same aad. */
export function reseal(ring: KeyRing, sealed: string, aad?: string): string {
  const plaintext = open(ring, sealed, aad);
  try {
    return seal(ring, plaintext, aad);
  } finally {
    plaintext.fill(0);
  }
}

/** A fresh key-ring entry, `k<unix seconds>:<base64 of 32 random bytes>`, to put first in SECRETS_KEYS. */
export function generateKeyRingValue(now: Date = new Date()): string {
  return `k${Math.floor(now.getTime() / 1000)}:${randomBytes(KEY_BYTES).toString("base64")}`;
}
