// The client's check of frames from the broker (broker/protocol/frames.ts has their types): frames
// are validated before use, and fields a newer broker adds are let through, not refused.
import { z } from "zod";
import {
  MAX_STATUS_IDS,
  MAX_STATUS_RECIPIENTS,
  MESSAGE_PRIORITIES,
  ZTargetSpec,
  type TServerFrame,
} from "../protocol/frames";

const v = z.literal(1);
const id = z.string().optional();

const ZPeerInfo = z
  .object({
    memberId: z.string(),
    displayName: z.string(),
    role: z.string(),
    /** Absent from brokers older than safety numbers. */
    peerPubkey: z
      .string()
      .nullable()
      .optional()
      .transform((k) => k ?? null),
    boxPubkey: z
      .string()
      .nullable()
      .optional()
      .transform((k) => k ?? null),
    online: z.boolean(),
    status: z
      .string()
      .nullable()
      .optional()
      .transform((s) => s ?? null),
    statusText: z
      .string()
      .nullable()
      .optional()
      .transform((s) => s ?? null),
    /** Absent from older brokers: no groups. */
    groups: z
      .array(z.string().max(32))
      .max(16)
      .optional()
      .transform((g) => g ?? []),
    userName: z
      .string()
      .max(200)
      .nullable()
      .optional()
      .transform((n) => n ?? null),
    /** Absent from older brokers, which did not tell: online is taken to mean it receives. */
    receiving: z.boolean().optional(),
    parentMemberId: z
      .string()
      .nullable()
      .optional()
      .transform((p) => p ?? null),
  })
  .transform(({ receiving, ...p }) => ({ ...p, receiving: receiving ?? p.online }));

export const ZServerFrame = z.discriminatedUnion("type", [
  z.object({
    v,
    type: z.literal("welcome"),
    connectionId: z.string(),
    meshId: z.string(),
    memberId: z.string(),
    maxMessageBytes: z.number(),
    heartbeatMs: z.number(),
    queued: z.number(),
    keyEpoch: z.number().int().min(0).default(0),
  }),
  z.object({ v, type: z.literal("key_epoch"), epoch: z.number().int().min(0) }),
  z.object({ v, type: z.literal("pong"), id, ts: z.number() }),
  z.object({
    v,
    type: z.literal("sent"),
    id: z.string(),
    messageId: z.string(),
    createdAt: z.string(),
    recipients: z.number(),
  }),
  z.object({
    v,
    type: z.literal("message"),
    messageId: z.string(),
    seq: z.string(),
    from: z.string(),
    to: ZTargetSpec,
    priority: z.enum(MESSAGE_PRIORITIES),
    createdAt: z.string(),
    ciphertext: z.string(),
    attempt: z.number(),
  }),
  z.object({ v, type: z.literal("peers"), id, peers: z.array(ZPeerInfo) }),
  z.object({
    v,
    type: z.literal("message_status"),
    id,
    messages: z
      .array(
        z.object({
          messageId: z.string(),
          createdAt: z.string(),
          expiresAt: z.string(),
          deliveredAt: z.string().nullable(),
          recipientCount: z.number().int().min(0),
          recipients: z
            .array(
              z.object({
                memberId: z.string(),
                state: z.enum(["queued", "delivered", "gone"]),
                attempts: z.number().int().min(0),
                lastDeliveredAt: z.string().nullable(),
              }),
            )
            .max(MAX_STATUS_RECIPIENTS),
        }),
      )
      .max(MAX_STATUS_IDS),
  }),
  z.object({
    v,
    type: z.literal("status"),
    id,
    memberId: z.string(),
    status: z.string(),
    text: z.string().nullable(),
    at: z.string(),
  }),
  z.object({
    v,
    type: z.literal("presence"),
    memberId: z.string(),
    displayName: z.string(),
    online: z.boolean(),
    // Absent from a broker older than `receiving`: online was all it knew.
    receiving: z.boolean().default(true),
  }),
  z.object({ v, type: z.literal("error"), code: z.string(), message: z.string(), id }),
]);

/** A server frame, or undefined when the text is not one this client understands. */
export function parseServerFrame(text: string): TServerFrame | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = ZServerFrame.safeParse(json);
  return parsed.success ? (parsed.data as TServerFrame) : undefined;
}
