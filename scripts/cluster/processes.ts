// The product's processes for the cluster test: each started from the product's own entry commands
// (scripts/lib/product.ts `processSpec`, the demo platform's spec), killed with SIGKILL and started
// again on the same port, and watched through /health while the test runs.
import { spawn, type ChildProcess } from "node:child_process";
import { PROJECT_ROOT } from "../../src/server/core/project-root";
import { demoPlatformSpec } from "../lib/demo-platform";
import { processSpec } from "../lib/product";
import type { ChildSpec } from "../lib/supervisor";

export type Kind = "web" | "broker" | "worker" | "platform";

const HEALTH_PATH: Record<Kind, string> = {
  web: "/api/health",
  broker: "/health",
  worker: "/health",
  platform: "/health",
};
const KEPT_LINES = 200;

/** One product process: started, killed and started again under the same name, port and environment. */
export class ClusterProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private lines: string[] = [];
  /** True while the process counts as running (set before a kill, so the watch does not count it). */
  up = false;
  /** How many times it was started: a health answer of an earlier start is not counted against a later. */
  generation = 0;
  readonly spec: ChildSpec;

  constructor(
    readonly name: string,
    readonly kind: Kind,
    readonly port: number,
    private readonly env: Record<string, string | undefined>,
    dev = false,
  ) {
    this.spec = kind === "platform" ? demoPlatformSpec(false) : processSpec(kind, dev);
  }

  /** The process id of the running start (its process group's id too), if any. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get healthUrl(): string {
    return `${this.url}${HEALTH_PATH[this.kind]}`;
  }

  /** Starts the process (in its own process group, so a kill reaches anything it started) and waits for /health. */
  async start(timeoutMs = 120_000): Promise<void> {
    this.generation += 1;
    const child = spawn(this.spec.command, this.spec.args, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...this.spec.env, ...this.env, SERVICE_NAME: this.name },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n"))
        if (line) this.lines.push(`${this.name}#${this.generation} ${line}`);
      if (this.lines.length > KEPT_LINES) this.lines.splice(0, this.lines.length - KEPT_LINES);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    let gone = false;
    this.exited = new Promise((resolve) => child.once("exit", () => ((gone = true), resolve())));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (gone) throw new Error(`${this.name} exited while starting:\n${this.tail()}`);
      if (await answers(this.healthUrl)) break;
      if (Date.now() > deadline)
        throw new Error(`${this.name} did not answer ${this.healthUrl} in time:\n${this.tail()}`);
      await sleep(200);
    }
    this.up = true;
  }

  /** SIGKILL to the process group; resolves once the process is gone. */
  async kill(): Promise<void> {
    this.up = false;
    this.signal("SIGKILL");
    await this.exited;
  }

  /** SIGTERM, then SIGKILL after the grace period; whatever the process left in its group goes too. */
  async stop(graceMs = 10_000): Promise<void> {
    this.up = false;
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.signal("SIGTERM");
    const timer = setTimeout(() => this.signal("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
    this.signal("SIGKILL");
  }

  /** The last lines the process wrote (all its starts), for a failure's message. */
  tail(): string {
    return this.lines.join("\n");
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is gone already
    }
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface HealthFailure {
  name: string;
  what: string;
  at: string;
}

/**
 * Polls /health of every process that is up, one request at a time per process with 200 ms between
 * them, and records every answer that is not 200 (or none within the time limit) of a process that was
 * up for the whole request: a killed process is set down before its kill, so only survivors count.
 */
export class HealthWatch {
  readonly failures: HealthFailure[] = [];
  readonly checks = new Map<string, number>();
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(processes: ClusterProcess[], timeoutMs = 10_000) {
    this.loops = processes.map((p) => this.watch(p, timeoutMs));
  }

  private async watch(p: ClusterProcess, timeoutMs: number): Promise<void> {
    while (this.running) {
      if (p.up) {
        const generation = p.generation;
        let what = "200";
        try {
          const res = await fetch(p.healthUrl, { signal: AbortSignal.timeout(timeoutMs) });
          await res.body?.cancel();
          what = String(res.status);
        } catch (error) {
          what = (error as Error).name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : (error as Error).message;
        }
        if (p.up && p.generation === generation) {
          this.checks.set(p.name, (this.checks.get(p.name) ?? 0) + 1);
          if (what !== "200") this.failures.push({ name: p.name, what, at: new Date().toISOString() });
        }
      }
      await sleep(200);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/** Where the processes of one test cluster listen and what they are told (see {@link clusterProcesses}). */
export interface ClusterLayout {
  /** Names broker nodes `<run>-broker<N>`. */
  run: string;
  /** Environment of every process (database, log level, ...). */
  common: Record<string, string>;
  /** Environment of the processes that run jobs and serve the API: the web processes and the workers. */
  engine: Record<string, string>;
  platform: { port: number; latencyMs: number };
  brokers: { ports: number[]; env?: Record<string, string> };
  workers: number[];
  /** One web process is named `web`, several `web1`, `web2`, ... */
  webs: number[];
}

/**
 * The processes of a test cluster on loopback: the demo platform, brokers, workers and web processes,
 * each with its port and environment (web processes send peers to the first broker). Not started.
 */
export function clusterProcesses(layout: ClusterLayout): ClusterProcess[] {
  const { common, engine } = layout;
  const local = "127.0.0.1";
  return [
    new ClusterProcess("platform", "platform", layout.platform.port, {
      ...common,
      DEMO_PLATFORM_PORT: String(layout.platform.port),
      DEMO_PLATFORM_HOST: local,
      DEMO_PLATFORM_LATENCY_MS: String(layout.platform.latencyMs),
    }),
    ...layout.brokers.ports.map(
      (port, i) =>
        new ClusterProcess(`broker${i + 1}`, "broker", port, {
          ...common,
          BROKER_PORT: String(port),
          BROKER_HOST: local,
          BROKER_NODE_ID: `${layout.run}-broker${i + 1}`,
          BROKER_DB_POOL_MAX: "4",
          ...layout.brokers.env,
        }),
    ),
    ...layout.workers.map(
      (port, i) =>
        new ClusterProcess(`worker${i + 1}`, "worker", port, {
          ...common,
          ...engine,
          WORKER_PORT: String(port),
          WORKER_HOST: local,
          WORKER_CONCURRENCY: "2",
          CALLBACK_CONCURRENCY: "2",
        }),
    ),
    ...layout.webs.map(
      (port, i) =>
        new ClusterProcess(layout.webs.length === 1 ? "web" : `web${i + 1}`, "web", port, {
          ...common,
          ...engine,
          PORT: String(port),
          HOST: local,
          PUBLIC_BASE_URL: `http://${local}:${port}`,
          PUBLIC_BROKER_URL: `ws://${local}:${layout.brokers.ports[0]}`,
        }),
    ),
  ];
}
