import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import type { ReceivedMessage } from "./client-types";

/** An unread message as the inbox keeps it: `shownAt` when it was pushed to the model as a channel event. */
export type InboxMessage = ReceivedMessage & { shownAt?: string };

/** Unread messages one inbox keeps at most; past it the oldest go (each dropped one is counted). */
export const INBOX_MAX_MESSAGES = 10_000;

/**
 * A local inbox of received messages for one mesh (`<MESH_HOME>/inbox/<meshId>.jsonl`, mode 0600, in a
 * 0700 folder): `mesh mcp` writes every message it receives here before the broker gets its ack, so a
 * message that arrives between two tool calls waits here until `read_messages` takes it. One JSON
 * line per unread message; reading rewrites the file atomically without the messages taken.
 */
export class Inbox {
  readonly file: string;
  /** Messages dropped because the inbox was full (oldest first). */
  dropped = 0;

  constructor(home: string, meshId: string) {
    if (!/^[0-9a-f-]{36}$/.test(meshId)) throw new Error("inbox: bad mesh id");
    const dir = path.join(home, "inbox");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.file = path.join(dir, `${meshId}.jsonl`);
  }

  /** The unread messages, oldest first (a line that does not parse is skipped). */
  list(): InboxMessage[] {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return [];
    }
    const out: InboxMessage[] = [];
    const seen = new Set<string>();
    for (const line of text.split("\n")) {
      if (!line) continue;
      try {
        const m = JSON.parse(line) as InboxMessage;
        if (typeof m.messageId === "string" && !seen.has(m.messageId)) {
          seen.add(m.messageId);
          out.push(m);
        }
      } catch {
        // a torn last line of a crash: skipped
      }
    }
    return out;
  }

  /**
   * Appends a message (once per id) and forces it to disk; returns false when it was there already.
   * `shownAt`: it is being pushed to the model as a channel event now (hooks leave such ones alone).
   */
  add(message: ReceivedMessage, shownAt?: string): boolean {
    const unread = this.list();
    if (unread.some((m) => m.messageId === message.messageId)) return false;
    if (unread.length >= INBOX_MAX_MESSAGES) {
      this.dropped += unread.length - INBOX_MAX_MESSAGES + 1;
      this.rewrite(unread.slice(unread.length - INBOX_MAX_MESSAGES + 1));
    }
    const fd = openSync(this.file, "a", 0o600);
    try {
      writeSync(fd, `${JSON.stringify(shownAt ? { ...message, shownAt } : message)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return true;
  }

  /** Takes up to `limit` unread messages, oldest first: they are no longer in the inbox afterwards. */
  take(limit: number): InboxMessage[] {
    const unread = this.list();
    const taken = unread.slice(0, Math.max(0, limit));
    if (taken.length > 0) this.rewrite(unread.slice(taken.length));
    return taken;
  }

  /** Takes one message by id (a reply handed to the tool call that waited for it); undefined when not there. */
  takeOne(messageId: string): InboxMessage | undefined {
    const unread = this.list();
    const at = unread.findIndex((m) => m.messageId === messageId);
    if (at < 0) return undefined;
    const [taken] = unread.splice(at, 1);
    this.rewrite(unread);
    return taken;
  }

  private rewrite(messages: InboxMessage[]): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, messages.map((m) => `${JSON.stringify(m)}\n`).join(""), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
