// Written without Buffer or node:* so that code shared with a browser bundle (the invite codec) can use it.
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

const utf8Encoder = new TextEncoder();
const strictUtf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Base64url without padding (RFC 4648 section 5), the encoding of every key, signature and token of the product. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out +=
      ALPHABET.charAt(n >>> 18) +
      ALPHABET.charAt((n >>> 12) & 63) +
      ALPHABET.charAt((n >>> 6) & 63) +
      ALPHABET.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] ?? 0) << 16;
    out += ALPHABET.charAt(n >>> 18) + ALPHABET.charAt((n >>> 12) & 63);
  } else if (rest === 2) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += ALPHABET.charAt(n >>> 18) + ALPHABET.charAt((n >>> 12) & 63) + ALPHABET.charAt((n >>> 6) & 63);
  }
  return out;
}

/**
 * Decodes canonical base64url without padding; undefined for anything else (padding, `+` or `/`, a
 * dangling character, non-zero trailing bits, or a length other than byteLength when given). Being
 * strict means each byte string has exactly one accepted spelling, so tokens compare as strings.
 */
export function tryFromBase64Url(value: unknown, byteLength?: number): Uint8Array | undefined {
  if (typeof value !== "string") return undefined;
  const len = value.length;
  if (len % 4 === 1) return undefined;
  const size = Math.floor((len * 3) / 4);
  if (byteLength !== undefined && size !== byteLength) return undefined;
  const out = new Uint8Array(size);
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < len; i++) {
    const code = value.charCodeAt(i);
    const v = code < 128 ? (VALUES[code] ?? -1) : -1;
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  // Left-over bits must be zero, or two strings would decode to the same bytes.
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

/** Decodes canonical base64url (see tryFromBase64Url); throws a TypeError otherwise. */
export function fromBase64Url(value: string, byteLength?: number): Uint8Array {
  const bytes = tryFromBase64Url(value, byteLength);
  if (!bytes) {
    throw new TypeError(
      byteLength === undefined ? "not canonical base64url" : `not canonical base64url of ${byteLength} bytes`,
    );
  }
  return bytes;
}

/** True when the value is canonical base64url without padding (of byteLength bytes when given). */
export function isBase64Url(value: unknown, byteLength?: number): value is string {
  // The same answer as tryFromBase64Url without decoding (the broker checks every message's ciphertext).
  if (typeof value !== "string") return false;
  const len = value.length;
  const rest = len % 4;
  if (rest === 1) return false;
  if (byteLength !== undefined && Math.floor((len * 3) / 4) !== byteLength) return false;
  if (!BASE64URL_CHARS.test(value)) return false;
  // Left-over bits of the last character must be zero: 4 of them after 2 characters, 2 after 3.
  if (rest === 0) return true;
  return ((VALUES[value.charCodeAt(len - 1)] ?? 0) & (rest === 2 ? 0x0f : 0x03)) === 0;
}

const BASE64URL_CHARS = /^[A-Za-z0-9_-]*$/;

/** UTF-8 bytes of a string. */
export function utf8(value: string): Uint8Array {
  return utf8Encoder.encode(value);
}

/** Decodes UTF-8, or undefined when the bytes are not well-formed UTF-8 (no silent U+FFFD). */
export function tryDecodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8Decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The bytes of `parts` one after the other, in a new array. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
