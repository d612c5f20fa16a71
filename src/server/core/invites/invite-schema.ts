import { z } from "zod";
import { isBase64Url } from "../encoding";

/** Payload fields in their one order: JSON key order of the token and field order of the canonical bytes. */
export const INVITE_FIELDS = [
  "v",
  "mesh_id",
  "mesh_slug",
  "broker_url",
  "expires_at",
  "mesh_root_key",
  "role",
  "owner_pubkey",
  "signature",
] as const;

/** The fields covered by the signature (all but `signature`), in canonical order. */
export const INVITE_SIGNED_FIELDS = INVITE_FIELDS.slice(0, -1) as readonly Exclude<
  (typeof INVITE_FIELDS)[number],
  "signature"
>[];

/** The payload version this codec writes and accepts. */
export const INVITE_VERSION = 1;

/** Roles an invite may grant; `owner` is never granted by invite. */
export const INVITE_GRANTABLE_ROLES = ["admin", "member", "observer"] as const;

/**
 * Longest token accepted before any decoding. The largest valid payload (2048-character broker URL,
 * 64-character slug) encodes to about 3,300 characters, so 4096 leaves room and bounds the work an
 * attacker can cause per request.
 */
export const INVITE_TOKEN_MAX_LENGTH = 4096;

export const INVITE_BROKER_URL_MAX_LENGTH = 2048;

// Every pattern below excludes `|`, the canonical separator, so the canonical form is unambiguous.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
// RFC 3986 characters only: an ASCII URL has one UTF-8 spelling and never needs JSON escaping.
const BROKER_URL = /^wss?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
const ISO_SECONDS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function isBrokerUrl(value: string): boolean {
  if (!BROKER_URL.test(value)) return false;
  try {
    const url = new URL(value);
    return (
      (url.protocol === "ws:" || url.protocol === "wss:") &&
      url.hostname !== "" &&
      url.username === "" &&
      url.password === ""
    );
  } catch {
    return false;
  }
}

// The regex alone would take 2026-02-30T25:00:00Z; a round trip through Date rejects it.
function isIsoSecondsUtc(value: string): boolean {
  if (!ISO_SECONDS_UTC.test(value)) return false;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && new Date(ms).toISOString() === `${value.slice(0, -1)}.000Z`;
}

/** An invite expiry as the payload writes it: ISO-8601 UTC to the second (`2026-12-01T12:00:00Z`), truncating milliseconds. */
export function formatInviteExpiry(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

const unsignedShape = {
  v: z.literal(INVITE_VERSION),
  mesh_id: z.string().regex(UUID, { error: "must be a lower-case UUID" }),
  mesh_slug: z.string().regex(SLUG, { error: "must be a mesh slug" }),
  broker_url: z
    .string()
    .max(INVITE_BROKER_URL_MAX_LENGTH)
    .refine(isBrokerUrl, { error: "must be a ws:// or wss:// URL without credentials" }),
  expires_at: z
    .string()
    .refine(isIsoSecondsUtc, { error: "must be ISO-8601 UTC to the second, like 2026-12-01T12:00:00Z" }),
  mesh_root_key: z.string().refine((s) => isBase64Url(s, 32), { error: "must be base64url of 32 bytes" }),
  role: z.enum(INVITE_GRANTABLE_ROLES),
  owner_pubkey: z
    .string()
    .refine((s) => isBase64Url(s, 32), { error: "must be base64url of a 32-byte ed25519 public key" }),
};

/** An invite payload before signing. */
export const ZUnsignedInvitePayload = z.strictObject(unsignedShape);
export type TUnsignedInvitePayload = z.infer<typeof ZUnsignedInvitePayload>;

/** A complete invite payload; strict, so an extra key is as malformed as a missing one. */
export const ZInvitePayload = z.strictObject({
  ...unsignedShape,
  signature: z
    .string()
    .refine((s) => isBase64Url(s, 64), { error: "must be base64url of a 64-byte ed25519 signature" }),
});
export type TInvitePayload = z.infer<typeof ZInvitePayload>;

/** A role an invite may grant. */
export type TInviteRole = TInvitePayload["role"];
