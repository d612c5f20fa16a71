// Private files of the command line's configuration folder: folders mode 0700, files 0600, every write
// atomic (temporary file, fsync, rename, then the folder). Node's built-ins only: the session store,
// which the assistant's hooks load on every prompt, uses it too.
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import path from "node:path";

/** Creates the directory with mode 0700, or tightens an existing one to 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/** The rename is durable only once the directory entry is; not every platform allows fsync on a directory. */
export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort
  }
}

/** Writes `text` to `file` atomically, mode 0600, after making `dirs` (and the file's folder) private. */
export function writePrivateFile(file: string, text: string, dirs: readonly string[] = []): void {
  const dir = path.dirname(file);
  for (const d of [...dirs, dir]) ensurePrivateDir(d);
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, file);
  syncDir(dir);
}
