// The image's entry point and health check, run as the container runs them: deploy/entrypoint.sh
// must start the same entry points as the start command (processSpec), and deploy/healthcheck.mjs
// must answer a container runtime with its exit code.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/server/core/project-root";
import { demoPlatformSpec } from "./lib/demo-platform";
import { DEPLOY_DIR, processOf, readCompose, SAMPLE_ENV } from "./lib/deploy-kit";
import { BROKER_NODE_FLAGS } from "../broker/node-flags";
import { processSpec } from "./lib/product";

// A `node` first on PATH that prints the arguments it was given, one per line.
const fakeBin = mkdtempSync(path.join(os.tmpdir(), "entry-"));
writeFileSync(path.join(fakeBin, "node"), '#!/bin/sh\nprintf "%s\\n" "$@"\n');
chmodSync(path.join(fakeBin, "node"), 0o755);
afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));

function entrypoint(...args: string[]) {
  const run = spawnSync("sh", [path.join(DEPLOY_DIR, "entrypoint.sh"), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH ?? ""}` },
    encoding: "utf8",
  });
  // Every argument, empty ones included (the fake node prints each on its own line).
  return { status: run.status, lines: run.stdout.split("\n").slice(0, -1), stderr: run.stderr };
}

const packageJson = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};
const migrateScript = packageJson.scripts["db:migrate"];

/** What the start command runs for each name (Node's arguments). */
const EXPECTED: Record<string, string[]> = {
  web: processSpec("web", false).args,
  broker: processSpec("broker", false).args,
  worker: processSpec("worker", false).args,
  platform: demoPlatformSpec(false).args,
  // package.json: "db:migrate": "tsx scripts/migrate.ts" (tsx's loader under node).
  migrate: ["--import", "tsx", ...(migrateScript ?? "").replace(/^tsx /, "").split(" ")],
};

describe("deploy/entrypoint.sh", () => {
  it.each(Object.entries(EXPECTED))("%s runs node with the start command's arguments", (name, args) => {
    const run = entrypoint(name);
    expect(run.status, run.stderr).toBe(0);
    expect(run.lines).toEqual(args);
    expect(existsSync(path.join(PROJECT_ROOT, args.at(-1) ?? "")), args.at(-1)).toBe(true);
  });

  it("starts the broker with its Node flags (a larger young generation), in the image as in the start command", () => {
    // (The test above already holds the entry point's arguments to processSpec's, flags included.)
    expect(BROKER_NODE_FLAGS).toContain("--max-semi-space-size=64");
    expect(processSpec("broker", false).args).toEqual([...BROKER_NODE_FLAGS, "--import", "tsx", "broker/index.ts"]);
    expect(processSpec("broker", true).args).toEqual(["watch", ...BROKER_NODE_FLAGS, "broker/index.ts"]);
    // No other process gets them, and an empty flag list adds no empty argument.
    expect(entrypoint("worker").lines).toEqual(["--import", "tsx", "src/worker/index.ts"]);
  });

  it("knows every process compose.yaml runs, and passes further arguments on", () => {
    const names = Object.values(readCompose(SAMPLE_ENV).services)
      .map(processOf)
      .filter((n): n is string => Boolean(n));
    for (const name of new Set(names)) expect(EXPECTED[name], name).toBeDefined();
    expect(entrypoint("migrate", "--check").lines).toEqual([...(EXPECTED.migrate ?? []), "--check"]);
  });

  it("runs any other command as given, and refuses no command at all", () => {
    expect(entrypoint("echo", "hello").lines).toEqual(["hello"]);
    const none = entrypoint();
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^usage: web \| broker \| worker \| platform \| migrate/);
  });
});

describe("deploy/healthcheck.mjs", () => {
  // Asynchronous (not spawnSync): the server answering the check runs in this process.
  const check = (url?: string) =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [path.join(DEPLOY_DIR, "healthcheck.mjs"), ...(url ? [url] : [])], {
        stdio: "ignore",
      });
      child.once("exit", (code) => resolve(code));
    });

  it("exits 0 on a 2xx answer and 1 on a 503, a refused connection or no answer in time", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const server = http.createServer((req, res) => {
      if (req.url === "/slow") return; // never answers
      res.writeHead(req.url === "/ready" ? 200 : 503).end();
    });
    server.on("connection", (s) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const codes = await Promise.all(
        ["/ready", "/draining", "/slow"].map((p) => check(`http://127.0.0.1:${port}${p}`)).concat(check()),
      );
      expect(codes).toEqual([0, 1, 1, 2]);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await check(`http://127.0.0.1:${port}/ready`)).toBe(1);
    // The unanswered check waits out its own 3-second limit; a loaded machine starts Node slowly.
  }, 20_000);
});
