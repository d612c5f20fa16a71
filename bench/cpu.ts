// CPU time of processes on this machine (Linux /proc), for telling which process saturates first.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "../src/server/core/db";

/** Clock ticks per second of /proc's utime and stime (USER_HZ; 100 on Linux). */
const TICKS = 100;

function stat(pid: number): { ppid: number; seconds: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / TICKS };
  } catch {
    return null; // gone
  }
}

/** CPU seconds (user + system) a process has used so far, 0 when it is gone. */
export function cpuSeconds(pid: number): number {
  return stat(pid)?.seconds ?? 0;
}

/** A per-process figure summed over a process and its children (one level: PostgreSQL's postmaster and its backends). */
function treeSum(root: number, read: (pid: number) => number): number {
  let total = read(root);
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s && s.ppid === root) total += read(Number(name));
  }
  return total;
}

/** CPU seconds of a process and its children. */
export function treeCpuSeconds(root: number): number {
  return treeSum(root, cpuSeconds);
}

/**
 * Seconds a process's main thread has waited on the run queue for a core (Linux schedstat's second
 * field, in ns), 0 when it is gone or the kernel keeps no schedstat: the time it was ready and not run.
 */
export function runQueueSeconds(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[1]) / 1e9 || 0;
  } catch {
    return 0;
  }
}

/** Run-queue seconds of a process and its children. */
export function treeRunQueueSeconds(root: number): number {
  return treeSum(root, runQueueSeconds);
}

/**
 * The postmaster's pid of the database `db` is connected to, from its data directory's postmaster.pid
 * (null when that file is not readable here: a server on another machine or of another user).
 */
export async function postmasterPidOf(db: Db): Promise<number | null> {
  const [row] = await db.$queryRaw<
    { setting: string }[]
  >`SELECT setting FROM pg_settings WHERE name = 'data_directory'`;
  if (!row) return null;
  try {
    const pid = Number(readFileSync(path.join(row.setting, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) this process has used so far. */
export function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Measures CPU use over a window: share of one core per named process (1.0 = one core busy). */
export class CpuWindow {
  private startedAt = 0;
  private before = new Map<string, number>();
  readonly shares = new Map<string, number>();

  constructor(private readonly sources: Record<string, () => number>) {}

  start(): void {
    this.startedAt = performance.now();
    for (const [name, read] of Object.entries(this.sources)) this.before.set(name, read());
  }

  end(): void {
    const elapsed = (performance.now() - this.startedAt) / 1_000;
    for (const [name, read] of Object.entries(this.sources))
      this.shares.set(name, (read() - (this.before.get(name) ?? 0)) / elapsed);
  }

  /** Several windows as the one measured window of a bench run (broker-load.ts's `run`). */
  static together(...windows: CpuWindow[]): { start(): void; end(): void } {
    return { start: () => windows.forEach((w) => w.start()), end: () => windows.forEach((w) => w.end()) };
  }

  /** "brokers 1.21 cores, postgres 0.62, …" (another unit for other sources, e.g. seconds waited a second). */
  describe(unit = "cores"): string {
    return [...this.shares].map(([name, share]) => `${name} ${share.toFixed(2)}`).join(", ") + ` ${unit}`;
  }
}
