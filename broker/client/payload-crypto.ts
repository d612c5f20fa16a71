// Payload encryption of protocol v1 (docs/protocol.md, "Payload encryption"): done by clients only.
// Portable (tweetnacl, no Node built-ins): the chat page uses it as the command line does.
import nacl from "tweetnacl";
import { z } from "zod";
import {
  concatBytes,
  fromBase64Url,
  toBase64Url,
  tryDecodeUtf8,
  tryFromBase64Url,
  utf8,
} from "../../src/server/core/encoding";
import { MAX_TARGET_PEERS } from "../protocol/frames";

const MESH_KEY_CONTEXT = "ic-mesh-key-v1";
export const FORMAT_MESH = 0x01;
export const FORMAT_DIRECT = 0x02;
/** Whole mesh under a key of an epoch above 0 (docs/protocol.md, "Key epochs"). */
export const FORMAT_MESH_EPOCH = 0x03;
const KEY_ID = 8;
const EPOCH_HEADER = 1 + 4 + KEY_ID;
const NONCE = nacl.secretbox.nonceLength; // 24
const KEY = nacl.secretbox.keyLength; // 32
const BOXED_KEY = KEY + nacl.box.overheadLength; // 48
const ENTRY = 16 + NONCE + BOXED_KEY;

/** The mesh key: the first 32 bytes of SHA-512("ic-mesh-key-v1" ‖ mesh_root_key). */
export function deriveMeshKey(rootKey: Uint8Array): Uint8Array {
  if (rootKey.length !== 32) throw new TypeError("mesh root key must be 32 bytes");
  const context = utf8(MESH_KEY_CONTEXT);
  const input = new Uint8Array(context.length + rootKey.length);
  input.set(context);
  input.set(rootKey, context.length);
  return nacl.hash(input).slice(0, 32);
}

/** `0x01 ‖ nonce ‖ secretbox(plaintext, nonce, meshKey)`, base64url. */
export function sealForMesh(plaintext: Uint8Array, meshKey: Uint8Array): string {
  const nonce = nacl.randomBytes(NONCE);
  return toBase64Url(concatBytes(Uint8Array.of(FORMAT_MESH), nonce, nacl.secretbox(plaintext, nonce, meshKey)));
}

/** The 8-byte id of an epoch key, hex: the first bytes of SHA-512("ic-mesh-epoch-key-id-v1" ‖ key). */
export function epochKeyId(key: Uint8Array): string {
  const context = utf8("ic-mesh-epoch-key-id-v1");
  const input = new Uint8Array(context.length + key.length);
  input.set(context);
  input.set(key, context.length);
  return toHex(nacl.hash(input).subarray(0, KEY_ID));
}

/** `0x03 ‖ epoch (u32, big-endian) ‖ keyId (8) ‖ nonce ‖ secretbox(plaintext, nonce, epochKey)`, base64url. */
export function sealForEpoch(plaintext: Uint8Array, epoch: number, key: Uint8Array): string {
  if (!Number.isInteger(epoch) || epoch < 1 || epoch > 0xffffffff) throw new RangeError("epoch must be 1 to 2^32-1");
  const header = new Uint8Array(EPOCH_HEADER);
  header[0] = FORMAT_MESH_EPOCH;
  new DataView(header.buffer).setUint32(1, epoch);
  header.set(fromHex(epochKeyId(key)), 5);
  const nonce = nacl.randomBytes(NONCE);
  return toBase64Url(concatBytes(header, nonce, nacl.secretbox(plaintext, nonce, key)));
}

/** The epoch and key id of a `0x03` ciphertext (undefined for other formats or a short one). */
export function epochOf(ciphertext: string): { epoch: number; keyId: string } | undefined {
  const bytes = tryFromBase64Url(ciphertext);
  if (!bytes || bytes.length < EPOCH_HEADER || bytes[0] !== FORMAT_MESH_EPOCH) return undefined;
  return {
    epoch: new DataView(bytes.buffer, bytes.byteOffset).getUint32(1),
    keyId: toHex(bytes.subarray(5, EPOCH_HEADER)),
  };
}

export interface DirectRecipient {
  memberId: string;
  /** The recipient's X25519 public key, base64url. */
  boxPubkey: string;
}

/**
 * `0x02 ‖ n ‖ n × (memberId ‖ nonce ‖ box(messageKey)) ‖ nonce ‖ secretbox(plaintext, messageKey)`, base64url:
 * the plaintext is sealed once under a fresh message key, which is boxed to each recipient.
 */
export function sealDirect(
  plaintext: Uint8Array,
  recipients: readonly DirectRecipient[],
  senderBoxSecret: Uint8Array,
): string {
  if (recipients.length < 1 || recipients.length > MAX_TARGET_PEERS)
    throw new RangeError(`a direct message has 1 to ${MAX_TARGET_PEERS} recipients`);
  const messageKey = nacl.randomBytes(KEY);
  const parts: Uint8Array[] = [Uint8Array.of(FORMAT_DIRECT, recipients.length)];
  for (const r of recipients) {
    const nonce = nacl.randomBytes(NONCE);
    parts.push(
      uuidBytes(r.memberId),
      nonce,
      nacl.box(messageKey, nonce, fromBase64Url(r.boxPubkey, 32), senderBoxSecret),
    );
  }
  const nonce = nacl.randomBytes(NONCE);
  parts.push(nonce, nacl.secretbox(plaintext, nonce, messageKey));
  return toBase64Url(concatBytes(...parts));
}

export type OpenResult =
  | { ok: true; plaintext: Uint8Array; direct: boolean }
  | { ok: false; reason: "malformed" | "not_for_me" | "no_sender_key" | "tampered" | "no_epoch_key" };

export interface OpenKeys {
  meshKey: Uint8Array;
  memberId: string;
  boxSecretKey: Uint8Array;
  /** The sender's X25519 public key (base64url) when known; needed for direct messages only. */
  senderBoxPubkey?: string | null;
  /** The key of an epoch above 0 with this id, when held. */
  epochKey?: (epoch: number, keyId: string) => Uint8Array | undefined;
}

/** Opens a ciphertext of either format; never throws. */
export function openCiphertext(ciphertext: string, keys: OpenKeys): OpenResult {
  const bytes = tryFromBase64Url(ciphertext);
  if (!bytes || bytes.length < 1) return { ok: false, reason: "malformed" };
  if (bytes[0] === FORMAT_MESH) {
    if (bytes.length < 1 + NONCE + nacl.secretbox.overheadLength) return { ok: false, reason: "malformed" };
    const opened = nacl.secretbox.open(bytes.subarray(1 + NONCE), bytes.subarray(1, 1 + NONCE), keys.meshKey);
    return opened ? { ok: true, plaintext: opened, direct: false } : { ok: false, reason: "tampered" };
  }
  if (bytes[0] === FORMAT_MESH_EPOCH) {
    const head = epochOf(ciphertext);
    if (!head || bytes.length < EPOCH_HEADER + NONCE + nacl.secretbox.overheadLength)
      return { ok: false, reason: "malformed" };
    const key = keys.epochKey?.(head.epoch, head.keyId);
    if (!key) return { ok: false, reason: "no_epoch_key" };
    const opened = nacl.secretbox.open(
      bytes.subarray(EPOCH_HEADER + NONCE),
      bytes.subarray(EPOCH_HEADER, EPOCH_HEADER + NONCE),
      key,
    );
    return opened ? { ok: true, plaintext: opened, direct: false } : { ok: false, reason: "tampered" };
  }
  if (bytes[0] !== FORMAT_DIRECT || bytes.length < 2) return { ok: false, reason: "malformed" };
  const n = bytes[1] ?? 0;
  const bodyAt = 2 + n * ENTRY;
  if (n < 1 || bytes.length < bodyAt + NONCE + nacl.secretbox.overheadLength) return { ok: false, reason: "malformed" };
  const me = uuidBytes(keys.memberId);
  let at = -1;
  for (let i = 0; i < n; i++) {
    const start = 2 + i * ENTRY;
    if (equal(bytes.subarray(start, start + 16), me)) at = start;
  }
  if (at < 0) return { ok: false, reason: "not_for_me" };
  const senderKey = tryFromBase64Url(keys.senderBoxPubkey ?? undefined, 32);
  if (!senderKey) return { ok: false, reason: "no_sender_key" };
  const messageKey = nacl.box.open(
    bytes.subarray(at + 16 + NONCE, at + ENTRY),
    bytes.subarray(at + 16, at + 16 + NONCE),
    senderKey,
    keys.boxSecretKey,
  );
  if (!messageKey || messageKey.length !== KEY) return { ok: false, reason: "tampered" };
  const opened = nacl.secretbox.open(
    bytes.subarray(bodyAt + NONCE),
    bytes.subarray(bodyAt, bodyAt + NONCE),
    messageKey,
  );
  return opened ? { ok: true, plaintext: opened, direct: true } : { ok: false, reason: "tampered" };
}

const ZMessageId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

/**
 * The plaintext of a message of the command-line client; other kinds are ignored by clients that do not
 * know them. `replyTo`: the message id (the broker's) this one answers; inside the plaintext, so the
 * broker never learns which message answers which. A malformed `replyTo` is dropped, the text kept.
 */
export const ZTextPlaintext = z.object({
  kind: z.literal("text"),
  text: z.string(),
  sentAt: z.string(),
  replyTo: ZMessageId.optional().catch(undefined),
});
export type TTextPlaintext = z.output<typeof ZTextPlaintext>;

/** UTF-8 JSON of a text message (with the id of the message it answers, when it is a reply). */
export function encodeTextPlaintext(text: string, sentAt: Date = new Date(), replyTo?: string): Uint8Array {
  const value: TTextPlaintext = { kind: "text", text, sentAt: sentAt.toISOString() };
  if (replyTo !== undefined) value.replyTo = ZMessageId.parse(replyTo);
  return utf8(JSON.stringify(value));
}

/** Most message ids one read receipt carries (more go in several). */
export const MAX_RECEIPT_IDS = 100;

/**
 * A read receipt, sent in a direct message to the sender of the messages it names: the recipient's model
 * or person has been shown them (docs/protocol.md, "Receipts"). `at`: when, by the reader's clock.
 */
export const ZReceiptPlaintext = z.object({
  kind: z.literal("receipt"),
  read: z.array(ZMessageId).min(1).max(MAX_RECEIPT_IDS),
  at: z.iso.datetime(),
});
export type TReceiptPlaintext = z.output<typeof ZReceiptPlaintext>;

/** A whole-mesh key of an epoch, sent by a member to each other member in a direct message. */
export const ZMeshKeyPlaintext = z.object({
  kind: z.literal("mesh_key"),
  epoch: z.number().int().min(1).max(0xffffffff),
  key: z.string().refine((k) => tryFromBase64Url(k, KEY) !== undefined, { error: "key must be 32 bytes, base64url" }),
});
/** Asks the member who sent a message under an epoch key one does not hold for that key. */
export const ZMeshKeyRequestPlaintext = z.object({
  kind: z.literal("mesh_key_request"),
  epoch: z.number().int().min(1).max(0xffffffff),
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
});

/** UTF-8 JSON of a control plaintext (keys, receipts). */
export function encodeJsonPlaintext(
  value:
    z.input<typeof ZMeshKeyPlaintext> | z.input<typeof ZMeshKeyRequestPlaintext> | z.input<typeof ZReceiptPlaintext>,
): Uint8Array {
  return utf8(JSON.stringify(value));
}

/** The JSON value of a plaintext, or undefined. */
export function plaintextJson(bytes: Uint8Array): unknown {
  const text = tryDecodeUtf8(bytes);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The kind of a decrypted plaintext: text, another kind (to be ignored), or not valid JSON at all. */
export function decodePlaintext(
  bytes: Uint8Array,
): { kind: "text"; value: TTextPlaintext } | { kind: "other"; name: string } | { kind: "invalid" } {
  const text = tryDecodeUtf8(bytes);
  if (text === undefined) return { kind: "invalid" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "invalid" };
  }
  const parsed = ZTextPlaintext.safeParse(json);
  if (parsed.success) return { kind: "text", value: parsed.data };
  const kind =
    typeof json === "object" && json !== null && "kind" in json ? (json as { kind: unknown }).kind : undefined;
  return typeof kind === "string" && kind !== "text" ? { kind: "other", name: kind } : { kind: "invalid" };
}

/** The 16 raw bytes of a lower-case UUID. */
export function uuidBytes(id: string): Uint8Array {
  const hex = id.replace(/-/g, "");
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new TypeError("expected a lower-case UUID");
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
