import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { PROJECT_ROOT } from "@/server/core/project-root";
import { createDb, type Db } from "@/server/core/db";

/** A Prisma client on the test run's database (DATABASE_URL, set by the integration setup). */
export function testDb(): Db {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("integration tests need DATABASE_URL from the setup");
  return createDb(url, { max: 4 });
}

/** A unique token for rows a test creates, so tests never collide. */
export const uid = (tag = "t") => `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

export interface Spawned {
  child: ChildProcess;
  /** Both streams, interleaved as they arrived. */
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Runs a project script with tsx and collects its output. */
export function spawnTsx(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  nodeFlags: readonly string[] = [],
): Spawned {
  // Node itself with the tsx loader (not the tsx wrapper): signals reach the process under test directly
  // and a SIGKILL leaves no orphan behind.
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", script, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (c: Buffer) => ((out += c.toString()), (stdout += c.toString())));
  child.stderr?.on("data", (c: Buffer) => ((out += c.toString()), (stderr += c.toString())));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => out, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Polls a URL until it answers with the wanted status (or the deadline passes). */
export async function waitForHttp(url: string, status = 200, timeoutMs = 60_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === status) return res;
      last = `status ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer ${status} in time (${last})`);
}
