// The local history of one member on this device (docs/cli.md, "History"): every message it sent and
// received, in plaintext, with the receipts of the ones it sent. It never leaves the device. One JSON
// line per record, appended; a compaction folds the records and applies the retention, so the file
// stays bounded whatever runs (several processes may append to it at once).
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import type { TMessagePriority, TMessageStatus, TTargetSpec } from "../protocol/frames";
import type { ReadReceipt, ReceivedMessage } from "./client-types";

/** How long messages are kept, by default. */
export const HISTORY_DEFAULT_DAYS = 30;
/** How many messages are kept at most, by default (the newest). */
export const HISTORY_DEFAULT_MAX_MESSAGES = 10_000;
/** The file is compacted past this size, and a compacted file holds at most three quarters of it. */
export const HISTORY_MAX_BYTES = 64 * 1024 * 1024;
/** A message's text is kept up to this many characters (longer ones are cut, marked `truncated`). */
export const HISTORY_MAX_TEXT = 64 * 1024;
/** Recipients whose receipts are kept per message sent (more are counted, not listed). */
export const HISTORY_MAX_RECIPIENTS = 200;

export interface HistoryRetention {
  /** Messages older than this many days go (0: none are kept). */
  days: number;
  /** At most this many messages are kept, the newest (0: none). */
  maxMessages: number;
  /** The file's bound (bytes). */
  maxBytes?: number;
}

/**
 * The retention of the environment: `MESH_HISTORY_DAYS` (default 30) and `MESH_HISTORY_MAX_MESSAGES`
 * (default 10,000), whole numbers from 0; 0 keeps no history. A bad value throws, naming the variable.
 */
export function retentionOf(env: Readonly<Record<string, string | undefined>>): HistoryRetention {
  const read = (name: string, fallback: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > max)
      throw new RangeError(`${name} must be a whole number from 0 to ${max}`);
    return n;
  };
  return {
    days: read("MESH_HISTORY_DAYS", HISTORY_DEFAULT_DAYS, 36_500),
    maxMessages: read("MESH_HISTORY_MAX_MESSAGES", HISTORY_DEFAULT_MAX_MESSAGES, 1_000_000),
  };
}

/** Where a recipient's copy of a message sent stands, as this device last heard (only ever forward). */
export type ReceiptState = "queued" | "delivered" | "read" | "gone";
const RANK: Record<ReceiptState, number> = { queued: 0, gone: 1, delivered: 2, read: 3 };

export interface RecipientReceipt {
  state: ReceiptState;
  /** When the broker said it was delivered (the whole message's time when that is all it said). */
  deliveredAt?: string;
  readAt?: string;
}

/** One message of the history, its records folded. */
export interface HistoryEntry {
  id: string;
  dir: "in" | "out";
  /** When the broker stored it. */
  at: string;
  from: string;
  fromName: string | null;
  to: TTargetSpec;
  /** Names of the direct recipients as known when it was sent (out). */
  toNames?: Record<string, string>;
  direct: boolean;
  priority: TMessagePriority;
  text: string;
  truncated?: boolean;
  replyTo: string | null;
  /** Recipients the broker stored it for (out). */
  recipients?: number;
  /** Per recipient (out), at most HISTORY_MAX_RECIPIENTS. */
  receipts?: Record<string, RecipientReceipt>;
  /** When every recipient had it (out, from the broker). */
  deliveredAt?: string | null;
  /** When this device showed it (in: to the model or the person). */
  readAt?: string;
}

type Record_ =
  | ({ r: "m" } & HistoryEntry)
  | { r: "s"; id: string; m: string; s: ReceiptState; at: string }
  | { r: "d"; id: string; at: string }
  | { r: "read"; id: string; at: string };

/** What a search of the history asks for. */
export interface HistoryQuery {
  /** A peer by name (case-insensitive), member id, or member-id prefix of 8 characters or more. */
  peer?: string;
  /** Text to find in the messages (case-insensitive). */
  search?: string;
  /** The newest this many (default 50). */
  limit?: number;
}

const clip = (text: string) =>
  text.length > HISTORY_MAX_TEXT ? { text: text.slice(0, HISTORY_MAX_TEXT), truncated: true } : { text };

/** Member ids a target names (none for the whole mesh). */
function targetIds(to: TTargetSpec): string[] {
  return to.kind === "peer" ? [to.memberId] : to.kind === "peers" ? to.memberIds : [];
}

/**
 * The history of one member (`<home>/history/<memberId>.jsonl`, mode 0600, folder 0700). Appends are
 * single `write`s of one line to a file opened for appending, so the records of several processes do
 * not tear one another; a compaction rewrites the file through a temporary file and a rename, under a
 * lock file, and takes along what was appended while it worked.
 */
export class History {
  readonly file: string;
  private readonly lock: string;
  private readonly retention: Required<HistoryRetention>;
  /** The folded entries, read from the file when first needed and kept current by this process's records. */
  private cache: Map<string, HistoryEntry> | undefined;
  /** Bytes of the file as this process last knew them (its own appends added). */
  private bytes = 0;
  private readAtSize = -1;
  private lines = 0;
  private lastAgeCheck = 0;

  constructor(
    home: string,
    memberId: string,
    retention: HistoryRetention,
    private readonly now: () => number = Date.now,
  ) {
    if (!/^[0-9a-f-]{36}$/.test(memberId)) throw new Error("history: bad member id");
    const dir = path.join(home, "history");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.file = path.join(dir, `${memberId}.jsonl`);
    this.lock = `${this.file}.lock`;
    this.retention = { maxBytes: HISTORY_MAX_BYTES, ...retention };
    // Keeping nothing means what was kept goes too.
    if (!this.enabled) rmSync(this.file, { force: true });
  }

  /** Whether anything is kept at all. */
  get enabled(): boolean {
    return this.retention.days > 0 && this.retention.maxMessages > 0;
  }

  /** A message this member sent (after the broker's `sent`). */
  recordSent(m: {
    id: string;
    at: string;
    from: string;
    fromName: string | null;
    to: TTargetSpec;
    toNames?: Record<string, string>;
    priority: TMessagePriority;
    text: string;
    replyTo?: string | null;
    recipients: number;
  }): void {
    // A resend the broker answered with the first message (a session that has the entries loaded; a
    // record written twice is folded once anyway, the first kept).
    if (this.cache?.has(m.id)) return;
    this.append({
      r: "m",
      id: m.id,
      dir: "out",
      at: m.at,
      from: m.from,
      fromName: m.fromName,
      to: m.to,
      ...(m.toNames ? { toNames: m.toNames } : {}),
      direct: m.to.kind !== "mesh",
      priority: m.priority,
      ...clip(m.text),
      replyTo: m.replyTo ?? null,
      recipients: m.recipients,
    });
  }

  /** A message received (once per id). */
  recordReceived(m: ReceivedMessage): void {
    if (this.get(m.messageId)) return;
    this.append({
      r: "m",
      id: m.messageId,
      dir: "in",
      at: m.createdAt,
      from: m.from,
      fromName: m.fromName,
      to: m.to,
      direct: m.direct,
      priority: m.priority,
      ...clip(m.text),
      replyTo: m.replyTo ?? null,
    });
  }

  /** Messages received that this device has now shown (read receipts went, or will go, to their senders). */
  recordRead(ids: readonly string[], at: string = new Date(this.now()).toISOString()): void {
    for (const id of ids) {
      const e = this.get(id);
      if (e?.dir === "in" && !e.readAt) this.append({ r: "read", id, at });
    }
  }

  /**
   * A read receipt from a member. Taken only for messages this member sent and the reader was a
   * recipient of (named by a direct message, or any member for a whole-mesh one); returns the ids taken.
   */
  recordReceipt(receipt: ReadReceipt): string[] {
    const taken: string[] = [];
    for (const id of receipt.read) {
      const e = this.get(id);
      if (!e || e.dir !== "out" || e.from === receipt.from) continue;
      if (e.to.kind !== "mesh" && !targetIds(e.to).includes(receipt.from)) continue;
      const before = e.receipts?.[receipt.from];
      if (before?.state === "read") continue;
      if (!before && Object.keys(e.receipts ?? {}).length >= HISTORY_MAX_RECIPIENTS) continue;
      this.append({ r: "s", id, m: receipt.from, s: "read", at: receipt.at });
      taken.push(id);
    }
    return taken;
  }

  /** What the broker said of messages sent (message_status): the states that moved forward are recorded. */
  recordDelivery(statuses: readonly TMessageStatus[]): void {
    for (const st of statuses) {
      const e = this.get(st.messageId);
      if (!e || e.dir !== "out") continue;
      if (st.deliveredAt && !e.deliveredAt) this.append({ r: "d", id: e.id, at: st.deliveredAt });
      for (const r of st.recipients) {
        const before = e.receipts?.[r.memberId];
        if (!before && r.state === "queued") continue; // what every copy starts as: nothing to record
        if (before && RANK[before.state] >= RANK[r.state]) continue;
        if (!before && Object.keys(e.receipts ?? {}).length >= HISTORY_MAX_RECIPIENTS) continue;
        const at = r.state === "delivered" ? (st.deliveredAt ?? new Date(this.now()).toISOString()) : st.createdAt;
        this.append({ r: "s", id: e.id, m: r.memberId, s: r.state, at });
      }
    }
  }

  /** One message by id. */
  get(id: string): HistoryEntry | undefined {
    const cache = this.load();
    let e = cache.get(id);
    // Another process (a `mesh send`) may have written it since: read again when the file grew.
    if (!e && this.fileSize() !== this.readAtSize) e = this.load(true).get(id);
    return e;
  }

  /** Messages matching the query, oldest first (the newest `limit` of them), within the retention. */
  list(query: HistoryQuery = {}): HistoryEntry[] {
    // Reading it all anyway: past the count, compacted now (appends leave it slack, not to rewrite each time).
    this.compactIfNeeded(this.enabled && this.load(true).size > this.retention.maxMessages);
    const cutoff = this.now() - this.retention.days * 86_400_000;
    const all = [...this.load(true).values()]
      .filter((e) => Date.parse(e.at) >= cutoff)
      .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))
      .slice(-this.retention.maxMessages);
    const search = query.search?.toLowerCase();
    const peer = query.peer?.trim().toLowerCase();
    const isPeer = (id: string, name: string | null | undefined) =>
      id === peer ||
      (name ?? "").toLowerCase() === peer ||
      (peer !== undefined && peer.length >= 8 && id.startsWith(peer));
    const matched = all.filter((e) => {
      if (search && !e.text.toLowerCase().includes(search)) return false;
      if (peer === undefined) return true;
      if (e.dir === "in") return isPeer(e.from, e.fromName);
      return targetIds(e.to).some((id) => isPeer(id, e.toNames?.[id]));
    });
    const limit = Math.max(1, Math.min(query.limit ?? 50, 100_000));
    return matched.slice(-limit);
  }

  /** Applies the retention now (also done by itself as the file grows and as days pass). */
  compact(): void {
    this.compactIfNeeded(true);
  }

  private append(record: Record_): void {
    if (!this.enabled) return;
    const line = `${JSON.stringify(record)}\n`;
    // Not forced to disk (the inbox is, before the ack): a crash of the machine may cost the last records.
    const fd = openSync(this.file, "a", 0o600);
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
    const size = Buffer.byteLength(line);
    if (this.readAtSize === this.bytes) this.readAtSize += size; // nobody else wrote meanwhile: still current
    this.bytes += size;
    this.lines += 1;
    if (this.cache) {
      apply(this.cache, record);
      this.compactIfNeeded(false);
    } else this.quickCheck();
  }

  /**
   * The check of a process that never read the whole file (a `mesh send`): its size, and once the age
   * of its first message; the count is left to the next session that reads it (and to list()).
   */
  private quickCheck(): void {
    const size = this.fileSize();
    let due = size > this.retention.maxBytes;
    if (!due && this.lastAgeCheck === 0) {
      this.lastAgeCheck = this.now();
      const first = firstLine(this.file);
      try {
        const at = first ? Date.parse((JSON.parse(first) as { at?: string }).at ?? "") : NaN;
        due = at < this.now() - this.retention.days * 86_400_000;
      } catch {
        // a torn first line: the next full read skips it
      }
    }
    if (due) this.rewrite();
  }

  private fileSize(): number {
    try {
      return statSync(this.file).size;
    } catch {
      return 0;
    }
  }

  private load(fresh = false): Map<string, HistoryEntry> {
    if (this.cache && (!fresh || this.fileSize() === this.readAtSize)) return this.cache;
    let text = "";
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      // no history yet
    }
    const cache = new Map<string, HistoryEntry>();
    let lines = 0;
    for (const line of text.split("\n")) {
      if (!line) continue;
      lines += 1;
      try {
        apply(cache, JSON.parse(line) as Record_);
      } catch {
        // a torn line of a crash: skipped
      }
    }
    this.cache = cache;
    this.bytes = Buffer.byteLength(text);
    this.readAtSize = this.bytes;
    this.lines = lines;
    return cache;
  }

  private compactIfNeeded(force: boolean): void {
    const { maxBytes, maxMessages, days } = this.retention;
    const cache = this.load();
    const now = this.now();
    let due = force || this.bytes > maxBytes || this.lines > 2 * maxMessages + 1_000;
    // The age of the oldest message, looked at once an hour.
    if (!due && now - this.lastAgeCheck > 3_600_000) {
      this.lastAgeCheck = now;
      const cutoff = now - days * 86_400_000;
      for (const e of cache.values()) {
        if (Date.parse(e.at) < cutoff) {
          due = true;
          break;
        }
      }
    }
    if (due) this.rewrite();
  }

  private rewrite(): void {
    if (!this.takeLock()) return;
    try {
      const cache = this.load(true);
      const startSize = this.readAtSize;
      const cutoff = this.now() - this.retention.days * 86_400_000;
      let kept = [...cache.values()]
        .filter((e) => Date.parse(e.at) >= cutoff)
        .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))
        .slice(-this.retention.maxMessages);
      let lines = kept.map((e) => `${JSON.stringify({ r: "m", ...e })}\n`);
      let size = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
      const budget = Math.floor(this.retention.maxBytes * 0.75);
      let drop = 0;
      while (size > budget && drop < lines.length) size -= Buffer.byteLength(lines[drop++]!);
      kept = kept.slice(drop);
      lines = lines.slice(drop);
      const tmp = `${this.file}.${process.pid}.tmp`;
      const out = openSync(tmp, "w", 0o600);
      try {
        writeSync(out, lines.join(""));
        // What another process appended while this one worked goes along (it is read, not lost).
        const grown = this.fileSize();
        if (grown > startSize) {
          const fd = openSync(this.file, "r");
          try {
            const tail = Buffer.alloc(grown - startSize);
            readSyncAll(fd, tail, startSize);
            writeSync(out, tail);
          } finally {
            closeSync(fd);
          }
        }
        // On disk before it replaces the file: a crash leaves the old file or the new one.
        fsyncSync(out);
      } finally {
        closeSync(out);
      }
      renameSync(tmp, this.file);
      this.cache = undefined;
      this.load();
    } finally {
      rmSync(this.lock, { force: true });
    }
  }

  /** The compaction lock (a file created exclusively); one older than 30 s is a crashed holder's. */
  private takeLock(): boolean {
    try {
      closeSync(openSync(this.lock, "wx", 0o600));
      return true;
    } catch {
      try {
        if (this.now() - statSync(this.lock).mtimeMs < 30_000) return false;
        rmSync(this.lock, { force: true });
        closeSync(openSync(this.lock, "wx", 0o600));
        return true;
      } catch {
        return false;
      }
    }
  }
}

/** The first line of a file (up to 64 KiB of it), or undefined. */
function firstLine(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString("utf8");
    const end = text.indexOf("\n");
    return end < 0 ? undefined : text.slice(0, end);
  } finally {
    closeSync(fd);
  }
}

function readSyncAll(fd: number, into: Buffer, position: number): void {
  // Node's fs.readSync may return less than asked; loop until the buffer is full or the file ends.
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) break;
    done += n;
  }
}

/** Folds one record into the entries. */
function apply(cache: Map<string, HistoryEntry>, rec: Record_): void {
  if (!rec || typeof rec !== "object" || typeof rec.id !== "string") return;
  if (rec.r === "m") {
    if (cache.has(rec.id)) return;
    const { r: _r, ...entry } = rec;
    cache.set(rec.id, entry);
    return;
  }
  const e = cache.get(rec.id);
  if (!e) return;
  if (rec.r === "read") {
    e.readAt ??= rec.at;
    return;
  }
  if (rec.r === "d") {
    e.deliveredAt ??= rec.at;
    return;
  }
  if (rec.r === "s") {
    const receipts = (e.receipts ??= {});
    const before = receipts[rec.m];
    if (!before && Object.keys(receipts).length >= HISTORY_MAX_RECIPIENTS) return;
    if (before && RANK[before.state] >= RANK[rec.s]) {
      if (rec.s === "read") before.readAt ??= rec.at;
      return;
    }
    const next: RecipientReceipt = { ...before, state: rec.s };
    if (rec.s === "delivered" || rec.s === "read") next.deliveredAt ??= rec.at;
    if (rec.s === "read") next.readAt = rec.at;
    receipts[rec.m] = next;
  }
}
