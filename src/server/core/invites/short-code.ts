// The short code of an invite (docs/invites.md, "Short links"): 80 random bits written as 16 characters
// of lower-case base32, so a link like https://host/join/<code> fits a small QR code. No Node-only
// imports: the command-line client recognises codes with the same pattern.

/** RFC 4648 base32 alphabet, lower case: no padding, no characters a URL or a QR reader changes. */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
/** Random bytes per code: 10 bytes = 80 bits = 16 base32 characters. */
export const INVITE_CODE_BYTES = 10;
/** Length of a code in characters. */
export const INVITE_CODE_LENGTH = 16;
/** A code, once lower-cased. A token is far longer and starts with `eyJ`, so the two never overlap. */
export const INVITE_CODE_PATTERN = /^[a-z2-7]{16}$/;

/** Base32 (lower case, no padding) of bytes whose bit count is a multiple of 5. */
function base32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

/** A fresh code from the platform's cryptographic random source (`crypto.getRandomValues`). */
export function generateInviteCode(): string {
  const bytes = new Uint8Array(INVITE_CODE_BYTES);
  globalThis.crypto.getRandomValues(bytes);
  const code = base32(bytes);
  bytes.fill(0);
  return code;
}

/**
 * The code in its one stored spelling (lower case, since a reader may have upper-cased it), or
 * undefined when the text cannot be a code. Never throws, whatever it is given.
 */
export function normaliseInviteCode(raw: unknown): string | undefined {
  if (typeof raw !== "string" || raw.length !== INVITE_CODE_LENGTH) return undefined;
  const code = raw.toLowerCase();
  return INVITE_CODE_PATTERN.test(code) ? code : undefined;
}
