import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The revision the code was built from: GIT_SHA when set, else read from the repository's .git folder
 * (without running git), else from a REVISION file written at build time, else "unknown".
 */
export function resolveGitSha(root: string, env: Record<string, string | undefined> = process.env): string {
  if (env.GIT_SHA) return env.GIT_SHA;
  try {
    const gitDir = path.join(root, ".git");
    const head = readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
    if (!head.startsWith("ref: ")) return head;
    const ref = head.slice(5);
    const loose = path.join(gitDir, ref);
    if (existsSync(loose)) return readFileSync(loose, "utf8").trim();
    const packed = readFileSync(path.join(gitDir, "packed-refs"), "utf8");
    const line = packed.split("\n").find((l) => l.endsWith(` ${ref}`));
    if (line) return line.split(" ")[0] ?? "unknown";
  } catch {
    // no repository: fall through to the file a build leaves behind
  }
  try {
    return readFileSync(path.join(root, "REVISION"), "utf8").trim() || "unknown";
  } catch {
    return "unknown";
  }
}
