// Running the `mesh` command line as real processes in tests, each with its own MESH_HOME.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const BIN = path.join(ROOT, "broker", "cli", "mesh.mjs");

export interface MeshRun {
  child: ReturnType<typeof spawn>;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Processes and homes of one test file, for cleanup. */
export class MeshProcesses {
  private readonly running: MeshRun[] = [];
  private readonly homes: string[] = [];

  /** A new empty MESH_HOME. */
  home(): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mesh-cli-e2e-"));
    this.homes.push(dir);
    return dir;
  }

  /** Runs `mesh <args>` as its own process with MESH_HOME=home (and `env` added). */
  run(
    home: string,
    args: string[],
    command: string[] = [process.execPath, BIN],
    env: Record<string, string> = {},
  ): MeshRun {
    const [exe = "", ...pre] = command;
    const child = spawn(exe, [...pre, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, MESH_HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const p = { child, stdout: () => out, stderr: () => err, exited };
    this.running.push(p);
    return p;
  }

  /** Runs `mesh <args>` to its end. */
  async done(home: string, args: string[], env: Record<string, string> = {}) {
    const p = this.run(home, args, undefined, env);
    const code = await p.exited;
    return { code, out: p.stdout(), err: p.stderr() };
  }

  /** Everything every process printed so far (both streams). */
  output(): string {
    return this.running.map((p) => p.stdout() + p.stderr()).join("\n");
  }

  cleanup(): void {
    for (const p of this.running) p.child.kill("SIGKILL");
    for (const h of this.homes) rmSync(h, { recursive: true, force: true });
  }
}

/** Polls `check` every 50 ms until it is true. */
export async function until(check: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
