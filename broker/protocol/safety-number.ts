// Safety numbers (docs/protocol.md, "Safety numbers"): digits two members read to each other out of band
// to know that the broker handed each of them the other's real keys. Portable on purpose: tweetnacl and
// the project's own base64url only, no Node built-in, so the browser's chat computes the same digits.
import nacl from "tweetnacl";
import { concatBytes, toBase64Url, tryFromBase64Url } from "../../src/server/core/encoding";

/** The public keys a member is known by: its ed25519 peer key and its X25519 box key (null when it has none). */
export interface MemberPublicKeys {
  peerPubkey: string;
  boxPubkey: string | null;
}

/** Version of the derivation below; a new one gets a new prefix, so old and new digits never look alike. */
export const SAFETY_NUMBER_VERSION = 1;
/** SHA-512 rounds per member fingerprint (Signal's figure): about 50 ms in tweetnacl, once per peer shown. */
export const SAFETY_NUMBER_ITERATIONS = 5200;
/** Digits of one member's half; the safety number is both halves, 60 digits in 12 groups of 5. */
export const FINGERPRINT_DIGITS = 30;

const GROUP_DIGITS = 5;
const GROUP_MODULUS = 10 ** GROUP_DIGITS;
const CHUNK_BYTES = 5;
// The largest multiple of 10^5 that fits in 40 bits: chunks at or above it are skipped, so every
// group of 5 digits is exactly uniform (a chunk is skipped with probability 27776 / 2^40, about 2.5e-8).
const CHUNK_LIMIT = Math.floor(2 ** 40 / GROUP_MODULUS) * GROUP_MODULUS;

const encoder = new TextEncoder();
const FINGERPRINT_PREFIX = encoder.encode(`rm-safety-number-v${SAFETY_NUMBER_VERSION}`);
const KEY_ID_PREFIX = encoder.encode(`rm-key-fingerprint-v${SAFETY_NUMBER_VERSION}`);

/** Thrown for a key that is not 32 bytes of canonical base64url. */
export class SafetyNumberKeyError extends Error {
  override name = "SafetyNumberKeyError";
}

function key32(value: string, what: string): Uint8Array {
  const bytes = tryFromBase64Url(value, 32);
  if (!bytes) throw new SafetyNumberKeyError(`${what} is not a 32-byte base64url key`);
  return bytes;
}

/** The keys as bytes: ed25519 key (32), then 0x01 and the X25519 key (32), or 0x00 for no box key. */
export function memberKeyBytes(keys: MemberPublicKeys): Uint8Array {
  const out = new Uint8Array(keys.boxPubkey === null ? 33 : 65);
  out.set(key32(keys.peerPubkey, "peerPubkey"), 0);
  if (keys.boxPubkey !== null) {
    out[32] = 1;
    out.set(key32(keys.boxPubkey, "boxPubkey"), 33);
  }
  return out;
}

/**
 * Turns a stream of 64-byte digests into `count` groups of 5 decimal digits with no bias: each digest
 * gives twelve 40-bit big-endian chunks; a chunk below CHUNK_LIMIT gives `chunk mod 10^5`, one above it
 * is skipped; `next` is asked for another digest when one runs out. Exported for its test.
 */
export function digitGroups(first: Uint8Array, next: (previous: Uint8Array) => Uint8Array, count: number): string[] {
  const groups: string[] = [];
  let digest = first;
  for (;;) {
    for (let at = 0; at + CHUNK_BYTES <= digest.length && groups.length < count; at += CHUNK_BYTES) {
      // 40 bits do not fit JavaScript's 32-bit integer operators: the top byte is added as a multiple of 2^32.
      const low =
        (((digest[at + 1] ?? 0) << 24) |
          ((digest[at + 2] ?? 0) << 16) |
          ((digest[at + 3] ?? 0) << 8) |
          (digest[at + 4] ?? 0)) >>>
        0;
      const chunk = (digest[at] ?? 0) * 2 ** 32 + low;
      if (chunk < CHUNK_LIMIT) groups.push(String(chunk % GROUP_MODULUS).padStart(GROUP_DIGITS, "0"));
    }
    if (groups.length === count) return groups;
    digest = next(digest);
  }
}

/**
 * One member's half of a safety number, 30 digits: H₀ = SHA-512(prefix ‖ 0x00 ‖ keys), then 5200 rounds of
 * Hᵢ = SHA-512(Hᵢ₋₁ ‖ keys), read as six unbiased groups of 5 digits (more rounds of the same if a
 * chunk is skipped). Forging it for another key is a second preimage on about 100 bits.
 */
export function memberFingerprint(keys: MemberPublicKeys): string {
  const bytes = memberKeyBytes(keys);
  const round = (previous: Uint8Array) => nacl.hash(concatBytes(previous, bytes));
  let digest = nacl.hash(concatBytes(FINGERPRINT_PREFIX, new Uint8Array([0]), bytes));
  for (let i = 1; i < SAFETY_NUMBER_ITERATIONS; i++) digest = round(digest);
  return digitGroups(digest, round, FINGERPRINT_DIGITS / GROUP_DIGITS).join("");
}

/**
 * The safety number of two members, the same whichever of them computes it: both members' fingerprints,
 * the smaller first (as strings), 60 digits. Why two halves rather than one hash of both: see
 * docs/protocol.md, "Safety numbers" (a broker that substitutes both keys would otherwise search for a
 * collision of one short number, about 2^50 tries, instead of two second preimages).
 */
export function safetyNumber(a: MemberPublicKeys, b: MemberPublicKeys): string {
  const halves = [memberFingerprint(a), memberFingerprint(b)].sort();
  return halves.join("");
}

/** Digits in groups of 5 (`12345 67890 …`), `perLine` groups to a line (lines joined by `\n`). */
export function formatSafetyNumber(digits: string, perLine = 6): string {
  const groups = digits.match(/\d{1,5}/g) ?? [];
  const lines: string[] = [];
  for (let i = 0; i < groups.length; i += perLine) lines.push(groups.slice(i, i + perLine).join(" "));
  return lines.join("\n");
}

/**
 * A short stable id of a member's keys (base64url of the first 16 bytes of SHA-512 of a prefix and the
 * keys): what a "verified" mark remembers, so a later change of either key is noticed without storing
 * or recomputing the digits.
 */
export function keyFingerprint(keys: MemberPublicKeys): string {
  return toBase64Url(nacl.hash(concatBytes(KEY_ID_PREFIX, memberKeyBytes(keys))).subarray(0, 16));
}

/** A peer marked verified: which member, the fingerprint of its keys then, and when. */
export interface VerificationMark {
  memberId: string;
  keyFingerprint: string;
  markedAt: string;
}

/** `verified`: marked with the keys it has now; `changed`: marked, but its keys changed since; else `unverified`. */
export type VerificationState = "unverified" | "verified" | "changed";

/** The mark to keep when the user says the peer's safety number matched. */
export function markVerified(memberId: string, keys: MemberPublicKeys, at: Date = new Date()): VerificationMark {
  return { memberId, keyFingerprint: keyFingerprint(keys), markedAt: at.toISOString() };
}

/** Whether a peer with these keys now is verified, by the mark kept for it (if any). */
export function verificationState(mark: VerificationMark | undefined, keys: MemberPublicKeys): VerificationState {
  if (!mark) return "unverified";
  return mark.keyFingerprint === keyFingerprint(keys) ? "verified" : "changed";
}

/**
 * A listed peer's state among a client's marks (by member id). `peerPubkey` null (a broker that left the
 * key out) counts as changed for a marked peer: the key was there when it was marked.
 */
export function verificationAmong(
  marks: readonly VerificationMark[],
  peer: { memberId: string; peerPubkey: string | null; boxPubkey: string | null },
): VerificationState {
  const mark = marks.find((m) => m.memberId === peer.memberId);
  if (!mark) return "unverified";
  if (!peer.peerPubkey) return "changed";
  return verificationState(mark, { peerPubkey: peer.peerPubkey, boxPubkey: peer.boxPubkey });
}

/** The marks with this one in place of any earlier mark of the same member. */
export function withMark(marks: readonly VerificationMark[], mark: VerificationMark): VerificationMark[] {
  return [...marks.filter((m) => m.memberId !== mark.memberId), mark];
}

/** The marks without the member's. */
export function withoutMark(marks: readonly VerificationMark[], memberId: string): VerificationMark[] {
  return marks.filter((m) => m.memberId !== memberId);
}
