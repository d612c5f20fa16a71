import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { writePrivateFile } from "./private-file";

// Where the identity of each assistant session lives on the machine (docs/cli.md, "One identity per
// session"): `<MESH_HOME>/sessions/<meshId>/<session key>.json`, mode 0600 in 0700 folders, written
// atomically by the session's `mesh mcp`, read by the hooks of the same session. Node built-ins only:
// the hooks load this on every prompt and tool call.

/** One session member as stored (its secrets too: the file is the session's key file). */
export interface SessionRecord {
  version: 1;
  /** The assistant's session id (CLAUDE_CODE_SESSION_ID), or `ppid-<pid>` when it gave none. */
  sessionKey: string;
  meshId: string;
  meshSlug: string;
  memberId: string;
  displayName: string;
  role: string;
  parentMemberId: string;
  parentDisplayName: string;
  brokerUrl: string;
  /** Secrets of the session's own keys, base64url: the ed25519 seed and the X25519 secret key. */
  signSeed: string;
  boxSecretKey: string;
  /** The project folder the session works in. */
  project: string;
  /** The assistant's process (the parent of `mesh mcp`; the hooks' $PPID) and the MCP server's. */
  assistantPid: number;
  serverPid: number;
  createdAt: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY = /^[A-Za-z0-9_-]{1,128}$/;

/** The session key for an id an assistant gives (a file name: letters, digits, _ and -), or null. */
export function sessionKeyOf(id: string | undefined | null): string | null {
  return typeof id === "string" && KEY.test(id) ? id : null;
}

/** The folder of one mesh's sessions. */
export function sessionDir(home: string, meshId: string): string {
  if (!UUID.test(meshId)) throw new Error("sessions: bad mesh id");
  return path.join(home, "sessions", meshId);
}

const fileOf = (home: string, meshId: string, key: string) => path.join(sessionDir(home, meshId), `${key}.json`);

function parse(text: string): SessionRecord | undefined {
  let r: Partial<SessionRecord>;
  try {
    r = JSON.parse(text) as Partial<SessionRecord>;
  } catch {
    return undefined;
  }
  const strings = [r.sessionKey, r.meshId, r.meshSlug, r.memberId, r.displayName, r.role, r.parentMemberId]
    .concat([r.parentDisplayName, r.brokerUrl, r.signSeed, r.boxSecretKey, r.project, r.createdAt])
    .every((v) => typeof v === "string");
  const ok =
    r.version === 1 &&
    strings &&
    UUID.test(r.memberId ?? "") &&
    UUID.test(r.meshId ?? "") &&
    Number.isInteger(r.assistantPid) &&
    Number.isInteger(r.serverPid);
  return ok ? (r as SessionRecord) : undefined;
}

/** The session stored under this key, if any. */
export function readSession(home: string, meshId: string, key: string): SessionRecord | undefined {
  if (!KEY.test(key)) return undefined;
  try {
    return parse(readFileSync(fileOf(home, meshId, key), "utf8"));
  } catch {
    return undefined;
  }
}

/** True while a process with this id exists (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid < 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The session a hook belongs to: the one stored under the assistant's session id, else the one whose
 * MCP server runs for the same assistant process (`assistantPid`, the hook's $PPID): after `/clear` the
 * assistant gives its hooks a new session id while its MCP server keeps the one it started with.
 */
export function findSession(
  home: string,
  meshId: string,
  by: { sessionId?: string | null; assistantPid?: number | null },
): SessionRecord | undefined {
  const key = sessionKeyOf(by.sessionId);
  const direct = key ? readSession(home, meshId, key) : undefined;
  if (direct) return direct;
  if (!by.assistantPid) return undefined;
  let names: string[];
  try {
    names = readdirSync(sessionDir(home, meshId)).filter((n) => n.endsWith(".json") && !n.startsWith("."));
  } catch {
    return undefined;
  }
  const candidates = names
    .map((n) => readSession(home, meshId, n.slice(0, -5)))
    .filter(
      (r): r is SessionRecord => r !== undefined && r.assistantPid === by.assistantPid && processAlive(r.serverPid),
    );
  return candidates.sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
}

/** Writes a session's record atomically (temporary file, fsync, rename), mode 0600 in 0700 folders. */
export function writeSession(home: string, record: SessionRecord): string {
  const file = fileOf(home, record.meshId, record.sessionKey);
  writePrivateFile(file, `${JSON.stringify(record, null, 2)}\n`, [home, path.join(home, "sessions")]);
  return file;
}

/** Forgets a session: its record and its epoch keys. */
export function removeSession(home: string, meshId: string, key: string): void {
  if (!KEY.test(key)) return;
  rmSync(fileOf(home, meshId, key), { force: true });
  rmSync(path.join(sessionDir(home, meshId), `${key}.keys`), { force: true });
}
