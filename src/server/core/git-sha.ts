import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The file a build leaves next to the sources so a copy without `.git` still knows its revision. */
export const REVISION_FILE = "REVISION";

/**
 * The revision the code was built from: GIT_SHA when set, else read from the repository's `.git`
 * (without running git; a `.git` file of a worktree or submodule is followed), else from the
 * REVISION file written at build time, else "unknown".
 */
export function resolveGitSha(root: string, env: Record<string, string | undefined> = process.env): string {
  if (env.GIT_SHA) return env.GIT_SHA;
  return readRepositoryRevision(root) ?? readRevisionFile(root) ?? "unknown";
}

/** Writes REVISION from the repository (called by the build); returns what it wrote, or null without `.git`. */
export function writeRevisionFile(root: string): string | null {
  const sha = readRepositoryRevision(root);
  if (sha) writeFileSync(path.join(root, REVISION_FILE), `${sha}\n`);
  return sha;
}

function readRevisionFile(root: string): string | null {
  try {
    return readFileSync(path.join(root, REVISION_FILE), "utf8").trim() || null;
  } catch {
    return null;
  }
}

function readRepositoryRevision(root: string): string | null {
  try {
    const gitDir = resolveGitDir(path.join(root, ".git"));
    const head = readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
    if (!head.startsWith("ref: ")) return head || null;
    const ref = head.slice(5);
    // A linked worktree keeps its HEAD in its own folder and the refs in the common one.
    const common = existsSync(path.join(gitDir, "commondir"))
      ? path.resolve(gitDir, readFileSync(path.join(gitDir, "commondir"), "utf8").trim())
      : gitDir;
    for (const dir of [gitDir, common]) {
      const loose = path.join(dir, ref);
      if (existsSync(loose)) return readFileSync(loose, "utf8").trim() || null;
    }
    const packed = readFileSync(path.join(common, "packed-refs"), "utf8");
    const line = packed.split("\n").find((l) => l.endsWith(` ${ref}`));
    return line?.split(" ")[0] || null;
  } catch {
    return null;
  }
}

/** `.git` is a folder, or (worktree, submodule) a file `gitdir: <path>`. */
function resolveGitDir(dotGit: string): string {
  if (statSync(dotGit).isDirectory()) return dotGit;
  const text = readFileSync(dotGit, "utf8").trim();
  if (!text.startsWith("gitdir: ")) throw new Error("not a git file");
  return path.resolve(path.dirname(dotGit), text.slice(8));
}
