import { ed25519Sign } from "../crypto/ed25519";
import { toBase64Url, tryDecodeUtf8, tryFromBase64Url, utf8 } from "../encoding";
import {
  INVITE_FIELDS,
  INVITE_SIGNED_FIELDS,
  INVITE_TOKEN_MAX_LENGTH,
  ZInvitePayload,
  ZUnsignedInvitePayload,
  type TInvitePayload,
  type TUnsignedInvitePayload,
} from "./invite-schema";

/** The decoded payload of a token, or `malformed`. */
export type DecodeInviteResult = { ok: true; payload: TInvitePayload } | { ok: false; reason: "malformed" };

/**
 * The signed text: every field but `signature`, in INVITE_FIELDS order, as strings (`v` in decimal),
 * joined with `|`. Expects a validated payload: the schema keeps `|` out of every field.
 */
export function canonicalInviteString(payload: TUnsignedInvitePayload): string {
  return INVITE_SIGNED_FIELDS.map((field) => String(payload[field])).join("|");
}

/** UTF-8 bytes of canonicalInviteString: what ed25519 signs. */
export function canonicalInviteBytes(payload: TUnsignedInvitePayload): Uint8Array {
  return utf8(canonicalInviteString(payload));
}

// Validation errors name fields and rules only, never values: a payload carries the mesh root key.
function invalid(what: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): Error {
  const described = issues.map((i) => `${i.path.map(String).join(".") || "payload"} ${i.message}`);
  return new TypeError(`${what}: ${described.join("; ")}`);
}

/** Signs an unsigned payload with the mesh owner's 64-byte ed25519 secret key; throws on an invalid payload or a key that is not owner_pubkey's. */
export function signInvite(unsigned: TUnsignedInvitePayload, ownerSecretKey: Uint8Array): TInvitePayload {
  const parsed = ZUnsignedInvitePayload.safeParse(unsigned);
  if (!parsed.success) throw invalid("Invalid invite payload", parsed.error.issues);
  if (!(ownerSecretKey instanceof Uint8Array) || ownerSecretKey.length !== 64) {
    throw new TypeError("ownerSecretKey must be a 64-byte ed25519 secret key");
  }
  // tweetnacl's secret key ends with its public key; a mismatch would sign invites nobody can verify.
  if (toBase64Url(ownerSecretKey.subarray(32)) !== parsed.data.owner_pubkey) {
    throw new TypeError("ownerSecretKey does not belong to owner_pubkey");
  }
  // Node's crypto: the same (deterministic) signature as tweetnacl's, without holding the event loop for milliseconds.
  const signature = ed25519Sign(canonicalInviteBytes(parsed.data), ownerSecretKey);
  return { ...parsed.data, signature: toBase64Url(signature) };
}

/**
 * The token of a payload: base64url of its JSON with keys in INVITE_FIELDS order and no whitespace.
 * Deterministic, so the same payload always gives the same string (lookup is by exact equality).
 */
export function encodeInviteToken(payload: TInvitePayload): string {
  const parsed = ZInvitePayload.safeParse(payload);
  if (!parsed.success) throw invalid("Invalid invite payload", parsed.error.issues);
  // An array replacer fixes both which keys are written and their order.
  return toBase64Url(utf8(JSON.stringify(parsed.data, [...INVITE_FIELDS])));
}

/** Signs an unsigned payload and encodes it: the token to store and hand out, and the signed payload. */
export function createInviteToken(
  unsigned: TUnsignedInvitePayload,
  ownerSecretKey: Uint8Array,
): { token: string; payload: TInvitePayload } {
  const payload = signInvite(unsigned, ownerSecretKey);
  return { token: encodeInviteToken(payload), payload };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

/**
 * Decodes a token to a schema-valid payload without checking the signature; `malformed` for anything
 * else. Never throws, whatever the input. Key order, whitespace and JSON escapes inside the token are
 * not checked here: the signature covers the fields, and stored tokens are matched as exact strings.
 */
export function decodeInviteToken(token: unknown): DecodeInviteResult {
  const malformed = { ok: false, reason: "malformed" } as const;
  // The length cap comes first so an oversized token costs O(1).
  if (typeof token !== "string" || token.length === 0 || token.length > INVITE_TOKEN_MAX_LENGTH) return malformed;
  try {
    const bytes = tryFromBase64Url(token);
    if (!bytes) return malformed;
    const json = tryDecodeUtf8(bytes);
    if (json === undefined) return malformed;
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return malformed;
    }
    // JSON.parse makes "__proto__" an own key; a strict key check refuses it before zod copies anything.
    if (!isPlainObject(value)) return malformed;
    const keys = Object.keys(value);
    if (keys.length !== INVITE_FIELDS.length || !INVITE_FIELDS.every((f) => Object.hasOwn(value, f))) return malformed;
    const parsed = ZInvitePayload.safeParse(value);
    if (!parsed.success) return malformed;
    const payload = parsed.data;
    return { ok: true, payload: Object.fromEntries(INVITE_FIELDS.map((f) => [f, payload[f]])) as TInvitePayload };
  } catch {
    // Defence in depth: the contract is "never throws", and a result is cheaper than a crashed handler.
    return malformed;
  }
}
