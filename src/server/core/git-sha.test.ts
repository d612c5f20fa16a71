import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveGitSha, writeRevisionFile } from "./git-sha";

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "git-sha-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

function repository(): { dir: string; sha: string } {
  const dir = temp();
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(path.join(dir, "a.txt"), "a");
  git(dir, "add", "a.txt");
  git(dir, "commit", "-q", "-m", "one");
  return { dir, sha: git(dir, "rev-parse", "HEAD") };
}

describe("resolveGitSha", () => {
  it("prefers GIT_SHA, then reads the branch's loose or packed ref, or a detached HEAD", () => {
    const { dir, sha } = repository();
    expect(resolveGitSha(dir, { GIT_SHA: "abc1234" })).toBe("abc1234");
    expect(resolveGitSha(dir, {})).toBe(sha);
    git(dir, "pack-refs", "--all");
    expect(resolveGitSha(dir, {})).toBe(sha);
    git(dir, "checkout", "-q", "--detach");
    expect(resolveGitSha(dir, {})).toBe(sha);
  });

  it("follows the .git file of a linked worktree", () => {
    const { dir, sha } = repository();
    const linked = path.join(temp(), "linked");
    git(dir, "worktree", "add", "-q", "-b", "other", linked);
    expect(resolveGitSha(linked, {})).toBe(sha);
  });

  it("in a copy without .git reads the REVISION file the build wrote, else answers unknown", () => {
    const { dir, sha } = repository();
    expect(writeRevisionFile(dir)).toBe(sha);
    const copy = temp();
    execFileSync("cp", [path.join(dir, "REVISION"), copy]);
    expect(resolveGitSha(copy, {})).toBe(sha);
    expect(resolveGitSha(temp(), {})).toBe("unknown");
    expect(writeRevisionFile(temp())).toBeNull();
  });
});
