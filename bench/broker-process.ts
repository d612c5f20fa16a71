// Processes of the broker benchmark: started with the tsx loader, waited for, stopped, and read through
// their Prometheus metrics.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import WebSocket from "ws";
import { processSpec } from "../scripts/lib/product";
import { tsEntry, type ChildSpec } from "../scripts/lib/supervisor";
import { percentile } from "./lib";

/** Node with the tsx loader, not the tsx wrapper (tsEntry): stop() signals the process itself, nothing is orphaned. */
function startNode(
  { command, args }: Pick<ChildSpec, "command" | "args">,
  env: Record<string, string>,
  nodeArgs: readonly string[],
): ChildProcess {
  return spawn(command, [...nodeArgs, ...args], {
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

export function startProcess(
  script: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): ChildProcess {
  return startNode(tsEntry(script), env, nodeArgs);
}

/** A broker node exactly as the start command runs it (processSpec: its Node flags included), with further Node arguments. */
export function startBroker(env: Record<string, string>, nodeArgs: readonly string[] = []): ChildProcess {
  return startNode(processSpec("broker", false), env, nodeArgs);
}

export async function waitHttp(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

export async function metricOf(httpBase: string, name: string): Promise<number> {
  const text = await (await fetch(`${httpBase}/metrics`)).text();
  const match = new RegExp(`^${name} (\\d+(?:\\.\\d+)?(?:e\\+\\d+)?)`, "m").exec(text);
  return match ? Number(match[1]) : NaN;
}

/**
 * Waits until every broker takes the batches of every other over a link (broker_cluster_links, both
 * directions): a node links to one that started after it only at its next look (every 5 s), and a run
 * measured before would count read-backs the nodes no longer make once linked.
 */
export async function waitForLinks(httpBases: readonly string[], timeoutMs = 20_000): Promise<void> {
  const others = httpBases.length - 1;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const counts = await Promise.all(
      httpBases.flatMap((base) =>
        ["receiving", "sending"].map((d) => metricOf(base, `broker_cluster_links\{direction="${d}"\}`)),
      ),
    );
    if (counts.every((n) => n >= others)) return;
    if (Date.now() > until)
      throw new Error(`broker nodes not linked within ${timeoutMs} ms (links: ${counts.join(", ")})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A full garbage collection in a process started with `--inspect=127.0.0.1:<port>`, through the
 * inspector protocol (HeapProfiler.collectGarbage), so that a heap reading counts live objects only.
 */
export async function collectGarbage(inspectPort: number): Promise<void> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error("no inspector target");
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
  await new Promise<void>((resolve) => {
    ws.on("message", (data) => (JSON.parse(String(data)) as { id?: number }).id === 1 && resolve());
    ws.send(JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" }));
  });
  ws.close();
}

/**
 * The broker's memory, settled: resident set and JavaScript heap in use, the smallest of five readings a
 * second apart, each after a full collection when the broker has an inspector port (else a reading taken
 * just before a collection counts garbage).
 */
export async function settledMemory(httpBase: string, inspectPort?: number): Promise<{ rss: number; heap: number }> {
  let rss = Infinity;
  let heap = Infinity;
  for (let i = 0; i < 5; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 1_000));
    if (inspectPort) await collectGarbage(inspectPort);
    rss = Math.min(rss, await metricOf(httpBase, "broker_process_resident_memory_bytes"));
    heap = Math.min(heap, await metricOf(httpBase, "broker_nodejs_heap_size_used_bytes"));
  }
  return { rss, heap };
}

/**
 * The machine's cost of waking another process: one-byte round trips on loopback TCP to an echo server
 * in a child process, one at a time. Every hop of a message (load generator, broker, PostgreSQL) pays
 * it, so runs on different days compare only beside it (a busy host makes it several times slower).
 */
export async function loopbackRoundTrips(count = 5_000): Promise<{ perSecond: number; p50: number; p99: number }> {
  const echo = spawn(
    process.execPath,
    [
      "-e",
      `const s = require("node:net").createServer((c) => c.on("data", (d) => c.write(d))).listen(0, "127.0.0.1", () => console.log(s.address().port));`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      echo.once("error", reject);
      echo.stdout!.once("data", (d: Buffer) => resolve(Number(String(d).trim())));
    });
    const socket = net.connect(port, "127.0.0.1");
    socket.setNoDelay(true);
    await new Promise((resolve, reject) => (socket.once("connect", resolve), socket.once("error", reject)));
    const times: number[] = [];
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      let sentAt = performance.now();
      socket.on("data", () => {
        times.push(performance.now() - sentAt);
        if (times.length === count) return resolve();
        sentAt = performance.now();
        socket.write("x");
      });
      socket.write("x");
    });
    const elapsed = (performance.now() - t0) / 1_000;
    socket.destroy();
    return { perSecond: count / elapsed, p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    echo.kill();
  }
}
