// The inbox between processes: the session's MCP server adds while its hooks take, each in a process of
// its own (Claude Code runs hooks of parallel tool calls at once). Under the inbox's lock file nothing is
// lost and nothing is taken twice.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Inbox } from "./inbox";

const dir = mkdtempSync(path.join(os.tmpdir(), "mesh-inbox-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function worker(script: string, args: string[]): Promise<string> {
  const file = path.join(dir, `${randomUUID()}.ts`);
  writeFileSync(file, script);
  const child = spawn(process.execPath, ["--import", "tsx", file, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`worker exited ${code}`)))),
  );
}

const inboxModule = JSON.stringify(path.join(import.meta.dirname, "inbox.ts"));

describe("inbox between processes", () => {
  it(
    "loses nothing and hands out nothing twice while one process adds and four take",
    { timeout: 60_000 },
    async () => {
      const home = path.join(dir, "home");
      const id = randomUUID();
      const adder = `import { Inbox } from ${inboxModule};
      const inbox = new Inbox(process.argv[2], process.argv[3]);
      for (let i = 0; i < 200; i++) inbox.add({ messageId: "m" + String(i).padStart(3, "0"), seq: String(i), from: "x", fromName: null,
        to: { kind: "mesh" }, direct: false, priority: "normal", createdAt: "", attempt: 1, text: "t" + i, sentAt: "" } as never);`;
      const taker = `import { Inbox } from ${inboxModule};
      const inbox = new Inbox(process.argv[2], process.argv[3]);
      const got: string[] = [];
      const until = Date.now() + 4000;
      while (Date.now() < until) got.push(...inbox.takeSome((u) => Math.min(u.length, 3), "hook").map((m) => m.messageId));
      process.stdout.write(JSON.stringify(got));`;
      const [, ...taken] = await Promise.all([
        worker(adder, [home, id]),
        ...Array.from({ length: 4 }, () => worker(taker, [home, id])),
      ]);
      const byHooks = taken.flatMap((t) => JSON.parse(t) as string[]);
      const all = [...byHooks, ...new Inbox(home, id).take(1_000).map((m) => m.messageId)];
      expect(all.length).toBe(200);
      expect(new Set(all).size).toBe(200);
      // Each message a hook took is logged as shown once.
      expect(
        new Inbox(home, id)
          .shown()
          .map((s) => s.id)
          .sort(),
      ).toEqual([...byHooks].sort());
    },
  );
});
