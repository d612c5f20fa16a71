import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import type { ReceivedMessage } from "./client-types";

// Keep this file's imports to node built-ins and types: the hook that injects messages into an assistant
// session loads it on every prompt and tool call (broker/cli/commands/hook-inject.ts).

/** An unread message as the inbox keeps it: `shownAt` when it was pushed to the model as a channel event. */
export type InboxMessage = ReceivedMessage & { shownAt?: string };

/** Unread messages one inbox keeps at most; past it the oldest go (each dropped one is counted). */
export const INBOX_MAX_MESSAGES = 10_000;
/** Lines the log of messages shown by a hook keeps (the newest; older ones are dropped when it passes twice this). */
const SHOWN_LOG_KEEP = 500;
/** A lock older than this was left by a process that died holding it (a holder keeps it for milliseconds). */
const STALE_LOCK_MS = 2_000;
/** Longest wait for the lock; past it the lock is taken over (its holder is stuck or gone). */
const LOCK_WAIT_MS = 1_000;

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleepMs = (ms: number) => Atomics.wait(pause, 0, 0, ms);

/**
 * Runs `work` holding `<file>.lock`: one process at a time changes an inbox (the MCP server that fills
 * it, and the hooks of the same session that take from it; docs/cli.md, "Hooks"). The lock is a file
 * made with O_EXCL, removed after; one left by a process that died is taken over after STALE_LOCK_MS.
 */
export function withFileLock<T>(file: string, work: () => T): T {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > STALE_LOCK_MS || Date.now() > deadline) rmSync(lock, { force: true });
      else sleepMs(1);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * A local inbox of received messages (`<MESH_HOME>/inbox/<id>.jsonl`, mode 0600, in a 0700 folder), for
 * one mesh (the machine's member: the id is the mesh's) or one assistant session (the id is the session
 * member's): `mesh mcp` writes every message it receives here before the broker gets its ack, so a
 * message that arrives between two tool calls waits here until `read_messages` or a hook takes it. One
 * JSON line per unread message; taking rewrites the file atomically, under the inbox's lock.
 */
export class Inbox {
  readonly file: string;
  /** Log of the messages a hook showed the assistant (`<id>.shown.jsonl`): id, when, how. */
  readonly shownFile: string;
  /** Messages dropped because the inbox was full (oldest first). */
  dropped = 0;

  constructor(home: string, id: string) {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error("inbox: bad id");
    const dir = path.join(home, "inbox");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.file = path.join(dir, `${id}.jsonl`);
    this.shownFile = path.join(dir, `${id}.shown.jsonl`);
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
    return withFileLock(this.file, () => {
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
    });
  }

  /** Takes up to `limit` unread messages, oldest first: they are no longer in the inbox afterwards. */
  take(limit: number): InboxMessage[] {
    return this.takeSome(() => Math.max(0, limit));
  }

  /**
   * Takes the first `choose(candidates)` of the unread messages that are `eligible` (all by default), under
   * the lock, so two takers (a tool call and a hook, two hooks) never both get one; with `shownBy`, they
   * are logged as shown that way.
   */
  takeSome(
    choose: (candidates: readonly InboxMessage[]) => number,
    shownBy?: string,
    eligible: (m: InboxMessage) => boolean = () => true,
  ): InboxMessage[] {
    return withFileLock(this.file, () => {
      const unread = this.list();
      const candidates = unread.filter(eligible);
      const taken = candidates.slice(0, choose(candidates));
      if (taken.length === 0) return taken;
      const gone = new Set(taken.map((m) => m.messageId));
      this.rewrite(unread.filter((m) => !gone.has(m.messageId)));
      if (shownBy) this.logShown(taken, shownBy);
      return taken;
    });
  }

  /** Takes one message by id (a reply handed to the tool call that waited for it); undefined when not there. */
  takeOne(messageId: string): InboxMessage | undefined {
    return this.takeSome(
      (candidates) => candidates.length,
      undefined,
      (m) => m.messageId === messageId,
    )[0];
  }

  /** The messages a hook showed, oldest first (ids and when), from the log. */
  shown(): { id: string; at: string; via: string }[] {
    try {
      return readFileSync(this.shownFile, "utf8")
        .split("\n")
        .filter(Boolean)
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as { id: string; at: string; via: string }];
          } catch {
            return [];
          }
        });
    } catch {
      return [];
    }
  }

  /** Removes the inbox's files (a session member that ended has nobody to read them). */
  remove(): void {
    for (const f of [this.file, this.shownFile, `${this.file}.lock`]) rmSync(f, { force: true });
  }

  private logShown(messages: readonly ReceivedMessage[], via: string): void {
    const at = new Date().toISOString();
    const lines = messages.map((m) => `${JSON.stringify({ id: m.messageId, at, via })}\n`).join("");
    const fd = openSync(this.shownFile, "a", 0o600);
    try {
      writeSync(fd, lines);
    } finally {
      closeSync(fd);
    }
    const logged = this.shown();
    if (logged.length > 2 * SHOWN_LOG_KEEP) {
      const tmp = `${this.shownFile}.${process.pid}.tmp`;
      writeFileSync(
        tmp,
        logged
          .slice(-SHOWN_LOG_KEEP)
          .map((l) => `${JSON.stringify(l)}\n`)
          .join(""),
        { mode: 0o600 },
      );
      renameSync(tmp, this.shownFile);
    }
  }

  private rewrite(messages: InboxMessage[]): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, messages.map((m) => `${JSON.stringify(m)}\n`).join(""), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
