// How a message becomes a `message` frame, whether it arrives now or is read back from the queue.
import type { QueuedMessage } from "../store/message-store";
import { PROTOCOL_VERSION, type TTargetSpec } from "../protocol/frames";

/** The member ids a target names (none for the whole mesh). */
export function targetIds(to: TTargetSpec): string[] {
  if (to.kind === "peer") return [to.memberId];
  if (to.kind === "peers") return to.memberIds;
  return [];
}

/**
 * Whether seq `a` comes before seq `b`: both are a bigint's decimal text as PostgreSQL writes it (no sign,
 * no leading zeros), so the shorter is smaller and equal lengths compare as text, without a BigInt each.
 */
export function seqBefore(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}

export type FrameSource = Pick<
  QueuedMessage,
  "id" | "seq" | "senderMemberId" | "targetSpec" | "priority" | "createdAtMs"
> & {
  /** Bytes from the queue, or the base64url text of the `send` frame (not encoded again). */
  ciphertext: Buffer | string;
};

/** A `message` frame ready to write: serialised once, whatever the number of connections it goes to. */
export interface OutFrame {
  id: string;
  priority: string;
  createdAtMs: number;
  attempt: number;
  text: string | Buffer;
}

/**
 * The frame's text (TMessageFrame), the same as JSON.stringify of the frame object would write
 * (message-frames.test.ts holds them equal) but written field by field: the stringifier scanned the kilobyte of ciphertext for
 * characters to escape, for every message. The ciphertext goes in as it is: base64url has none (the
 * text of a `send` passed isBase64Url in its frame's schema; bytes from the queue are encoded here).
 */
export function outFrame(row: FrameSource, attempt: number): OutFrame {
  const tries = Number.isFinite(attempt) ? Math.max(1, Math.trunc(attempt)) : 1;
  const ciphertext = typeof row.ciphertext === "string" ? row.ciphertext : row.ciphertext.toString("base64url");
  const text =
    `{"v":${PROTOCOL_VERSION},"type":"message","messageId":${JSON.stringify(row.id)},"seq":${JSON.stringify(row.seq)},` +
    `"from":${JSON.stringify(row.senderMemberId)},"to":${JSON.stringify(row.targetSpec)},"priority":${JSON.stringify(row.priority)},` +
    `"createdAt":"${new Date(row.createdAtMs).toISOString()}","ciphertext":"${ciphertext}","attempt":${tries}}`;
  return { id: row.id, priority: row.priority, createdAtMs: row.createdAtMs, attempt: tries, text };
}
