import { ensureDatabase, type ReadyDatabase } from "../src/server/core/database/ensure";

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
