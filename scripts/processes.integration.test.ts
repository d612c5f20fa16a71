import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, portOpen, spawnTsx, waitForHttp } from "../src/test/helpers";

const url = () => process.env.DATABASE_URL ?? "";

describe("configuration errors", () => {
  it.each([
    ["broker/index.ts", "broker"],
    ["src/worker/index.ts", "worker"],
    ["scripts/start.ts", "start"],
  ])("%s stops with one line naming DATABASE_URL", async (script, label) => {
    for (const value of ["mysql://x", ""]) {
      const run = spawnTsx(script, [], { DATABASE_URL: value });
      expect(await run.exited).toBe(1);
      const lines = run.output().trim().split("\n");
      expect(lines, run.output()).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^${label}: Invalid configuration: DATABASE_URL (must begin with postgres://|is required)`),
      );
    }
  });

  it("names any other bad variable too", async () => {
    const run = spawnTsx("broker/index.ts", [], { DATABASE_URL: url(), MAX_MESSAGE_BYTES: "lots" });
    expect(await run.exited).toBe(1);
    expect(run.output().trim()).toBe(
      "broker: Invalid configuration: MAX_MESSAGE_BYTES must be a whole number from 256 to 16777216",
    );
  });
});

describe("health of the broker and the worker", () => {
  it.each([
    ["broker/index.ts", "BROKER_PORT"],
    ["src/worker/index.ts", "WORKER_PORT"],
  ])("%s answers /health with status, db, version, gitSha, uptime and stops on SIGTERM", async (script, portVar) => {
    const port = await freePort();
    const run = spawnTsx(script, [], { DATABASE_URL: url(), [portVar]: String(port), GIT_SHA: "abc1234" });
    try {
      const res = await waitForHttp(`http://127.0.0.1:${port}/health`);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ status: "ok", db: "up", gitSha: "abc1234", version: expect.any(String) });
      expect(body.uptime).toEqual(expect.any(Number));
      expect(run.output()).toMatch(/"event":"listening"/);
    } finally {
      run.child.kill("SIGTERM");
    }
    expect(await run.exited).toBe(0);
    expect(await portOpen(port)).toBe(false);
  });

  it("broker /metrics is Prometheus text", async () => {
    const port = await freePort();
    // Open without METRICS_TOKEN only on a development start listening on loopback only (issue 41).
    const run = spawnTsx("broker/index.ts", [], {
      DATABASE_URL: url(),
      BROKER_PORT: String(port),
      BROKER_HOST: "127.0.0.1",
    });
    try {
      const res = await waitForHttp(`http://127.0.0.1:${port}/metrics`);
      expect(res.headers.get("content-type")).toContain("text/plain");
      expect(await res.text()).toMatch(/^broker_db_up 1$/m);
    } finally {
      run.child.kill("SIGTERM");
      await run.exited;
    }
  });
});

describe("running one process alone on the embedded database", () => {
  it("starts PostgreSQL and the broker, and Ctrl-C leaves no process and no open port", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pg-run-"));
    const [pgPort, brokerPort] = [await freePort(), await freePort()];
    // An undefined value removes the variable from the child's environment.
    const env = {
      DATABASE_URL: undefined,
      EMBEDDED_PG_DIR: dir,
      EMBEDDED_PG_PORT: String(pgPort),
      BROKER_PORT: String(brokerPort),
    };
    const run = spawnTsx("scripts/run.ts", ["broker"], env);
    try {
      await waitForHttp(`http://127.0.0.1:${brokerPort}/health`, 200, 90_000);
      expect(await portOpen(pgPort)).toBe(true);
      expect(run.output()).toMatch(/applied migrations/);
    } finally {
      run.child.kill("SIGINT");
    }
    expect(await run.exited).toBe(0);
    expect(await portOpen(pgPort)).toBe(false);
    expect(await portOpen(brokerPort)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
