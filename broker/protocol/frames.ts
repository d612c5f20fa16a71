import { z } from "zod";
import { isBase64Url } from "../../src/server/core/encoding";
import type { AppErrorCode } from "../../src/server/core/errors";

/** Wire protocol version carried by every frame (`v`). */
export const PROTOCOL_VERSION = 1;

const v = z.literal(PROTOCOL_VERSION);
/** Client-chosen correlation id, echoed in the answer (and in an error frame about that frame). */
const ZFrameId = z.string().min(1).max(64).optional();
const ZUuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "expected a lower-case UUID");

/** Most recipients one `peers` message may name (a larger group is the whole mesh). */
export const MAX_TARGET_PEERS = 100;
/** Most message ids one `ack` frame may carry. */
export const MAX_ACK_IDS = 500;
/** Most message ids one `message_status` frame may ask about. */
export const MAX_STATUS_IDS = 20;
/** Most recipients a `message_status` answer lists per message (the ones still waiting first). */
export const MAX_STATUS_RECIPIENTS = 100;

/** Who a message is for: the whole mesh (every member but the sender), one peer, or several. */
export const ZTargetSpec = z.discriminatedUnion("kind", [
  /** `epoch`: the key epoch the ciphertext is sealed under (absent: 0); it must be the mesh's current one. */
  z.strictObject({ kind: z.literal("mesh"), epoch: z.number().int().min(0).max(2_147_483_647).optional() }),
  z.strictObject({ kind: z.literal("peer"), memberId: ZUuid }),
  z.strictObject({
    kind: z.literal("peers"),
    memberIds: z
      .array(ZUuid)
      .min(1)
      .max(MAX_TARGET_PEERS)
      .refine((ids) => new Set(ids).size === ids.length, { error: "memberIds must be distinct" }),
  }),
]);
export type TTargetSpec = z.output<typeof ZTargetSpec>;

export const MESSAGE_PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export type TMessagePriority = (typeof MESSAGE_PRIORITIES)[number];

/** Status names a peer or hook may set: short lower-case words, shown as they are. */
export const ZStatus = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "status is 1-32 characters a-z, 0-9, _ or -");
export const ZStatusText = z.string().max(200);

/** Opaque ciphertext, base64url without padding; at most the frame cap in practice. */
const ZCiphertext = z
  .string()
  .min(1)
  .refine((v) => isBase64Url(v), { error: "ciphertext must be canonical base64url without padding" });

/**
 * Frames a peer may send, one JSON object per text frame: a discriminated union on `type`, strict
 * (unknown fields are refused), so each frame is validated by exactly one schema.
 */
export const ZClientFrame = z.discriminatedUnion("type", [
  z.strictObject({ v, type: z.literal("ping"), id: ZFrameId }),
  z.strictObject({
    v,
    type: z.literal("send"),
    id: z.string().min(1).max(64),
    to: ZTargetSpec,
    priority: z.enum(MESSAGE_PRIORITIES).default("normal"),
    ciphertext: ZCiphertext,
  }),
  z.strictObject({
    v,
    type: z.literal("ack"),
    messageIds: z.array(ZUuid).min(1).max(MAX_ACK_IDS),
  }),
  z.strictObject({ v, type: z.literal("set_status"), id: ZFrameId, status: ZStatus, text: ZStatusText.nullish() }),
  z.strictObject({ v, type: z.literal("peers"), id: ZFrameId }),
  z.strictObject({
    v,
    type: z.literal("message_status"),
    id: ZFrameId,
    messageIds: z
      .array(ZUuid)
      .min(1)
      .max(MAX_STATUS_IDS)
      .refine((ids) => new Set(ids).size === ids.length, { error: "messageIds must be distinct" }),
  }),
]);
export type TClientFrame = z.output<typeof ZClientFrame>;
export type TClientFrameInput = z.input<typeof ZClientFrame>;

/** Error codes of error frames: codes of the one error table (core/errors.ts), its general classes. */
export type TFrameErrorCode = Extract<
  AppErrorCode,
  | "BAD_REQUEST"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "TOO_MANY_REQUESTS"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL"
>;

export interface TPeerInfo {
  memberId: string;
  displayName: string;
  role: string;
  /** The member's ed25519 key (base64url), for safety numbers; null only from a broker older than them. */
  peerPubkey: string | null;
  /** The member's X25519 key for direct messages (base64url); null when its client sent none. */
  boxPubkey: string | null;
  online: boolean;
  /**
   * Whether a message reaches the member now: a live connection of it takes messages (an MCP server, `mesh
   * watch`). `online` and not `receiving`: it is connected only to send (the one-shot command line).
   */
  receiving: boolean;
  /** The member that made this session member (one assistant session); null for a machine's member. */
  parentMemberId: string | null;
  status: string | null;
  statusText: string | null;
  /** The member's groups (a message to `@group` goes to its members). */
  groups: string[];
  /** The account's name when the member (a device) belongs to a signed-in user; null otherwise. */
  userName: string | null;
}

/**
 * Where one recipient's copy of a message is, as the broker knows it: `queued` (stored, not acknowledged
 * by the recipient's device yet; `attempts` counts the times it was handed out from the queue),
 * `delivered` (its client acknowledged it), `gone` (the member left or was removed; whether it got the
 * message is not known).
 */
export type TRecipientState = "queued" | "delivered" | "gone";

/** The broker's delivery state of one message the asking member sent (answer to `message_status`). */
export interface TMessageStatus {
  messageId: string;
  createdAt: string;
  expiresAt: string;
  /** When the last recipient acknowledged it; null while any copy waits. */
  deliveredAt: string | null;
  /** Recipients in all; at most MAX_STATUS_RECIPIENTS are listed, the ones still waiting first. */
  recipientCount: number;
  recipients: { memberId: string; state: TRecipientState; attempts: number; lastDeliveredAt: string | null }[];
}

/** A message as delivered to a recipient. */
export interface TMessageFrame {
  v: 1;
  type: "message";
  messageId: string;
  /** Arrival order on the broker (decimal string: a 64-bit counter). */
  seq: string;
  from: string;
  to: TTargetSpec;
  priority: TMessagePriority;
  createdAt: string;
  ciphertext: string;
  /** 1 on first delivery; higher when the message is delivered again because no ack came. */
  attempt: number;
}

/** Frames the broker sends. */
export type TServerFrame =
  | {
      v: 1;
      type: "welcome";
      connectionId: string;
      meshId: string;
      memberId: string;
      maxMessageBytes: number;
      heartbeatMs: number;
      /** Messages queued for this member, delivered right after this frame. */
      queued: number;
      /** The mesh's whole-mesh key epoch: whole-mesh messages are sent under a key of it. */
      keyEpoch: number;
    }
  | { v: 1; type: "key_epoch"; epoch: number }
  | { v: 1; type: "pong"; id?: string; ts: number }
  | { v: 1; type: "sent"; id: string; messageId: string; createdAt: string; recipients: number }
  | TMessageFrame
  | { v: 1; type: "peers"; id?: string; peers: TPeerInfo[] }
  | { v: 1; type: "message_status"; id?: string; messages: TMessageStatus[] }
  | { v: 1; type: "status"; id?: string; memberId: string; status: string; text: string | null; at: string }
  | { v: 1; type: "presence"; memberId: string; displayName: string; online: boolean; receiving: boolean }
  | { v: 1; type: "error"; code: TFrameErrorCode; message: string; id?: string };

export type TParsedFrame = { ok: true; frame: TClientFrame } | { ok: false; message: string; id?: string };

/** Parses one text frame; never throws. */
export function parseClientFrame(text: string): TParsedFrame {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: "frame is not JSON" };
  }
  const parsed = ZClientFrame.safeParse(json);
  if (parsed.success) return { ok: true, frame: parsed.data };
  const id = idOf(json);
  if (isObject(json) && json.v !== PROTOCOL_VERSION)
    return { ok: false, message: `unsupported protocol version (expected v: ${PROTOCOL_VERSION})`, id };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
  return { ok: false, message: `invalid frame${where}: ${issue?.message ?? "unknown"}`, id };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function idOf(json: unknown): string | undefined {
  // Echo only an id that is itself valid, so an error frame never reflects arbitrary input.
  if (!isObject(json)) return undefined;
  const parsed = ZFrameId.safeParse(json.id);
  return parsed.success ? parsed.data : undefined;
}
