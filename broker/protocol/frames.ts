import { z } from "zod";

/** Wire protocol version carried by every frame (`v`). */
export const PROTOCOL_VERSION = 1;

const v = z.literal(PROTOCOL_VERSION);
/** Client-chosen correlation id, echoed in the answer (and in an error frame about that frame). */
const ZFrameId = z.string().min(1).max(64).optional();

/**
 * Frames a peer may send, one JSON object per text frame. A discriminated union on `type`, so
 * later frames (send, ack, set_status) are one more member each, validated the same way.
 */
export const ZClientFrame = z.discriminatedUnion("type", [
  z.strictObject({ v, type: z.literal("ping"), id: ZFrameId }),
]);
export type TClientFrame = z.output<typeof ZClientFrame>;

/** Error codes of error frames; the same names as the HTTP error codes (core/errors.ts). */
export type TFrameErrorCode = "BAD_REQUEST" | "PAYLOAD_TOO_LARGE" | "INTERNAL";

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
    }
  | { v: 1; type: "pong"; id?: string; ts: number }
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
  const id = idOf(json);
  const parsed = ZClientFrame.safeParse(json);
  if (parsed.success) return { ok: true, frame: parsed.data };
  if (isObject(json) && json.v !== PROTOCOL_VERSION) return { ok: false, message: `unsupported protocol version (expected v: ${PROTOCOL_VERSION})`, id };
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
