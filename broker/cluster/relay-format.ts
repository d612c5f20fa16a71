// The batches one broker node hands the others over their links (broker/cluster/links.ts): binary
// WebSocket messages of a length-prefixed JSON header and the `message` frames' text, so a receiving
// node writes each frame to its peers as it came, without parsing or encoding it again.
//   [u32 header length][header: {"a","b","last","m":[[id, meshId, priority, createdAtMs, [recipients], frameBytes], ...]}][frames...]
import type { OutFrame } from "../messages/message-frames";

/**
 * A stored message as a node delivers it: its `message` frame (attempt 1, serialised once for every
 * connection it goes to: message-frames.ts, outFrame) with its mesh and recipients.
 */
export interface PreparedMessage extends Omit<OutFrame, "attempt"> {
  meshId: string;
  recipients: readonly string[];
}

/** One part of a relayed batch: `a` and `b` are the batch's seq range (as its notification gives it). */
export interface RelayChunk {
  a: string;
  b: string;
  /** The batch's last part: the notification of its range is answered once this one came. */
  last: boolean;
  messages: PreparedMessage[];
}

/** Largest part of a batch on a link (a batch of large messages goes in several). */
export const RELAY_CHUNK_BYTES = 1024 * 1024;
/** Largest message a link accepts: one part holds at least one message of up to MAX_MESSAGE_BYTES (base64 and the frame's fields). */
export const relayMaxPayload = (maxMessageBytes: number) => RELAY_CHUNK_BYTES + 2 * maxMessageBytes + 64 * 1024;

type HeaderItem = [
  id: string,
  meshId: string,
  priority: string,
  createdAtMs: number,
  recipients: string[],
  bytes: number,
];

/** Splits a batch's messages into parts of about RELAY_CHUNK_BYTES, each encoded. */
export function encodeRelay(a: string, b: string, messages: readonly PreparedMessage[]): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  while (start < messages.length) {
    let end = start;
    let bytes = 0;
    while (end < messages.length && (end === start || bytes < RELAY_CHUNK_BYTES))
      bytes += Buffer.byteLength(messages[end++]!.text);
    parts.push(encodeChunk({ a, b, last: end === messages.length, messages: messages.slice(start, end) }));
    start = end;
  }
  return parts;
}

function encodeChunk(chunk: RelayChunk): Buffer {
  const lengths = chunk.messages.map((m) => Buffer.byteLength(m.text));
  const items: HeaderItem[] = chunk.messages.map((m, i) => [
    m.id,
    m.meshId,
    m.priority,
    m.createdAtMs,
    [...m.recipients],
    lengths[i]!,
  ]);
  const header = Buffer.from(JSON.stringify({ a: chunk.a, b: chunk.b, last: chunk.last, m: items }));
  const out = Buffer.allocUnsafe(4 + header.length + lengths.reduce((s, n) => s + n, 0));
  out.writeUInt32BE(header.length, 0);
  header.copy(out, 4);
  let at = 4 + header.length;
  for (const m of chunk.messages)
    at += typeof m.text === "string" ? out.write(m.text, at, "utf8") : m.text.copy(out, at);
  return out;
}

const isString = (v: unknown): v is string => typeof v === "string";
/** A seq as its decimal text (a 64-bit counter), as a replay compares it (delivery.ts). */
const isSeq = (v: unknown): v is string => isString(v) && /^\d{1,19}$/.test(v);

/** Reads a part; null when it is not one (a link is between nodes, but a bug must not take a node down). */
export function decodeRelay(data: Buffer): (RelayChunk & { messages: (PreparedMessage & { text: Buffer })[] }) | null {
  if (data.length < 4) return null;
  const headerLength = data.readUInt32BE(0);
  if (4 + headerLength > data.length) return null;
  let header: unknown;
  try {
    header = JSON.parse(data.toString("utf8", 4, 4 + headerLength));
  } catch {
    return null;
  }
  const h = header as { a?: unknown; b?: unknown; last?: unknown; m?: unknown };
  if (!isSeq(h.a) || !isSeq(h.b) || typeof h.last !== "boolean" || !Array.isArray(h.m)) return null;
  const messages: (PreparedMessage & { text: Buffer })[] = [];
  let at = 4 + headerLength;
  for (const item of h.m as unknown[]) {
    if (!Array.isArray(item) || item.length !== 6) return null;
    const [id, meshId, priority, createdAtMs, recipients, bytes] = item as unknown[];
    if (!isString(id) || !isString(meshId) || !isString(priority) || typeof createdAtMs !== "number") return null;
    if (!Array.isArray(recipients) || !recipients.every(isString) || !Number.isInteger(bytes) || (bytes as number) < 0)
      return null;
    const end = at + (bytes as number);
    if (end > data.length) return null;
    messages.push({ id, meshId, priority, createdAtMs, recipients, text: data.subarray(at, end) });
    at = end;
  }
  if (at !== data.length) return null;
  return { a: h.a, b: h.b, last: h.last, messages };
}
