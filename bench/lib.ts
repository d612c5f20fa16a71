import { spawn } from "node:child_process";
import { ensureDatabase, type ReadyDatabase } from "../scripts/database/ensure";

/** A database for a benchmark: its own embedded server folder and port unless DATABASE_URL is set. */
export async function benchDatabase(name: string): Promise<ReadyDatabase> {
  return ensureDatabase({
    env: {
      ...process.env,
      EMBEDDED_PG_DIR: process.env.BENCH_PG_DIR ?? ".data/postgres-bench",
      EMBEDDED_PG_PORT: process.env.BENCH_PG_PORT ?? "54359",
    },
    database: name,
  });
}

/** Percentile of a sample (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** Runs fn `n` times after `warmup` runs and returns the durations in milliseconds. */
export async function timeRuns(n: number, fn: () => Promise<unknown>, warmup = 5): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** The whole product (production build, `scripts/start.ts`) on bench ports and the bench database. */
export interface BenchServer {
  base: string;
  stop(): Promise<void>;
}

/**
 * Starts the product as `npm start` does (node --import tsx, so SIGTERM reaches it and it shuts down
 * its children and the embedded PostgreSQL cleanly), with the bench-only routes on, and waits until
 * `readyPath` answers 200.
 */
export async function startBenchServer(opts: {
  database: string;
  readyPath: string;
  host?: string;
}): Promise<BenchServer> {
  const port = Number(process.env.BENCH_PORT ?? 3200);
  const base = `http://${opts.host ?? "localhost"}:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      BROKER_PORT: process.env.BENCH_BROKER_PORT ?? "4500",
      WORKER_PORT: process.env.BENCH_WORKER_PORT ?? "4600",
      EMBEDDED_PG_DIR: process.env.BENCH_PG_DIR ?? ".data/postgres-bench",
      EMBEDDED_PG_PORT: process.env.BENCH_PG_PORT ?? "54359",
      EMBEDDED_PG_DATABASE: opts.database,
      BENCH_ROUTES: "1",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill("SIGTERM");
    await exited;
  };
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before it was up`);
    try {
      if ((await fetch(`${base}${opts.readyPath}`)).ok) return { base, stop };
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error("the server did not start within 5 minutes");
}
