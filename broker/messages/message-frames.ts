// How a message becomes a `message` frame, whether it arrives now or is read back from the queue.
import type { QueuedMessage } from "../../src/server/services/broker/message-store";
import { PROTOCOL_VERSION, type TMessageFrame, type TMessagePriority, type TTargetSpec } from "../protocol/frames";

/** The member ids a target names (none for the whole mesh). */
export function targetIds(to: TTargetSpec): string[] {
  if (to.kind === "peer") return [to.memberId];
  if (to.kind === "peers") return to.memberIds;
  return [];
}

type FrameSource = Pick<QueuedMessage, "id" | "seq" | "senderMemberId" | "targetSpec" | "priority" | "createdAtMs"> & {
  /** Bytes from the queue, or the base64url text of the `send` frame (not encoded again). */
  ciphertext: Buffer | string;
};

export function frameOf(row: FrameSource, attempt: number): TMessageFrame {
  return {
    v: PROTOCOL_VERSION,
    type: "message",
    messageId: row.id,
    seq: row.seq,
    from: row.senderMemberId,
    to: row.targetSpec as TTargetSpec,
    priority: row.priority as TMessagePriority,
    createdAt: new Date(row.createdAtMs).toISOString(),
    ciphertext: typeof row.ciphertext === "string" ? row.ciphertext : row.ciphertext.toString("base64url"),
    attempt: Math.max(1, attempt),
  };
}

/** A `message` frame ready to write: serialised once, whatever the number of connections it goes to. */
export interface OutFrame {
  id: string;
  priority: string;
  createdAtMs: number;
  attempt: number;
  text: string | Buffer;
}

export function outFrame(row: FrameSource, attempt: number): OutFrame {
  const frame = frameOf(row, attempt);
  return { id: row.id, priority: row.priority, createdAtMs: row.createdAtMs, attempt: frame.attempt, text: JSON.stringify(frame) };
}
