// The real command-line client (broker/cli/mesh.mjs) run as a child process against the product the
// suite started, with a config directory of its own.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "broker", "cli", "mesh.mjs");

export interface MeshRun {
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  stop: () => void;
}

export class MeshCli {
  readonly home = mkdtempSync(path.join(os.tmpdir(), "mesh-e2e-"));
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly webUrl: string) {}

  run(args: string[]): MeshRun {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, MESH_HOME: this.home, MESH_WEB_URL: this.webUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.children.add(child);
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    void exited.then(() => this.children.delete(child));
    return { stdout: () => out, stderr: () => err, exited, stop: () => child.kill("SIGINT") };
  }

  async done(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    const r = this.run(args);
    const code = await r.exited;
    return { code, out: r.stdout(), err: r.stderr() };
  }

  close(): void {
    for (const child of this.children) child.kill("SIGKILL");
    rmSync(this.home, { recursive: true, force: true });
  }
}
