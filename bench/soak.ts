/**
 * Soak: the product's real processes (web, broker, worker, demo reviews platform; embedded PostgreSQL)
 * under a moderate, constant mixed load for a long time, to see drift rather than saturation:
 * - messages: SOAK_PEERS reference clients (MeshClient) in one mesh through the broker, each sending a
 *   direct message to the next peer; SOAK_MESSAGES_PER_S in all (default 10 peers, 20 messages/s).
 *   Latency: from `send` to the recipient's `message` event.
 * - jobs: POST /api/scrape/platform-reviews with an API key (http-json scraper against the demo platform,
 *   20 reviews, a callback to a local receiver), SOAK_JOBS_PER_MIN (default 20). Latency: from the POST to
 *   the job.completed callback's arrival.
 * - pages: GETs of the signed-in demo user's main pages (home, dashboard, settings) with the session
 *   cookie of a real credentials sign-in, SOAK_PAGES_PER_S (default 1). Latency: until the whole HTML.
 * Every minute one line: resident memory of each process (VmRSS of its process group, /proc), p50/p95/p99
 * of messages, jobs and pages finished in that minute, and queue depths (jobs queued/running, message
 * deliveries not yet acknowledged). At the end: the drift between the first and the last window (five
 * minutes, or a fifth of a shorter run) against the goal: memory growth ≤ SOAK_MEMORY_GROWTH_PCT (10) %
 * per process and no p99 growth (SOAK_P99_GROWTH_PCT, 0) per kind, and no failed request. Exits 1 when
 * the goal is missed. Not part of CI.
 *   npx tsx bench/soak.ts [minutes=30]
 * Database: EMBEDDED_PG_DIR/EMBEDDED_PG_PORT (or BENCH_PG_DIR/BENCH_PG_PORT; default the bench server),
 * database `bench_soak`. Ports: SOAK_PORT_BASE (5600) for web, +1 broker, +2 worker, +3 platform.
 * The web runs the production build (built first when missing or stale, as `npm start` does);
 * SOAK_WEB_DEV=1 runs it in development mode instead (a quick check without a build; its figures are not
 * the product's).
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createDb } from "../src/server/core/db";
import { SYSTEM } from "../src/server/services/actor";
import { sealerOf, serviceContext } from "../src/server/services/context";
import { createApiKey } from "../src/server/services/reviews/api-keys";
import { ZCreateApiKeyInput } from "../src/server/services/reviews/api-keys.schema";
import { meshPeers } from "../scripts/cluster/mesh";
import { ClusterProcess, sleep, type Kind } from "../scripts/cluster/processes";
import { prepare } from "../scripts/lib/product";
import { percentile } from "./lib";

const minutes = Number(process.argv[2] ?? 30);
if (!(minutes > 0)) throw new Error("usage: npx tsx bench/soak.ts [minutes > 0]");
const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!(v > 0)) throw new Error(`${name} must be a positive number`);
  return v;
};
const PEERS = Math.max(2, Math.round(num("SOAK_PEERS", 10)));
const MESSAGES_PER_S = num("SOAK_MESSAGES_PER_S", 20);
const JOBS_PER_MIN = num("SOAK_JOBS_PER_MIN", 20);
const PAGES_PER_S = num("SOAK_PAGES_PER_S", 1);
const MEMORY_GOAL_PCT = Number(process.env.SOAK_MEMORY_GROWTH_PCT ?? 10);
const P99_GOAL_PCT = Number(process.env.SOAK_P99_GROWTH_PCT ?? 0);
const PORT_BASE = Math.round(num("SOAK_PORT_BASE", 5600));
const DEV = process.env.SOAK_WEB_DEV === "1";
const durationMs = minutes * 60_000;
const windowMs = Math.min(5 * 60_000, durationMs / 5);

process.env.EMBEDDED_PG_DIR ??= process.env.BENCH_PG_DIR ?? ".data/postgres-bench";
process.env.EMBEDDED_PG_PORT ??= process.env.BENCH_PG_PORT ?? "54359";
process.env.EMBEDDED_PG_DATABASE = "bench_soak";
process.env.LOG_LEVEL ??= "warn";

type LoadKind = "messages" | "jobs" | "pages";
const KINDS: LoadKind[] = ["messages", "jobs", "pages"];
/** A finished operation: when it finished (ms since the measured start) and how long it took. */
interface Sample {
  at: number;
  ms: number;
}
const samples: Record<LoadKind, Sample[]> = { messages: [], jobs: [], pages: [] };
const errors: Record<LoadKind, string[]> = { messages: [], jobs: [], pages: [] };
let t0 = performance.now();
const since = () => performance.now() - t0;
let measuring = false;
const record = (kind: LoadKind, ms: number) => measuring && samples[kind].push({ at: since(), ms });
const fail = (kind: LoadKind, what: string) => measuring && errors[kind].push(what);

// ---- processes ----------------------------------------------------------------------------------
const { env, database } = await prepare({ dev: DEV, buildWeb: !DEV, seed: true });
// This process makes the mesh and its members through the services, which read the same settings.
Object.assign(process.env, env);
const db = createDb(database.url, { max: 4 });
const stamp = Date.now().toString(36);
const queue = `soak_${stamp}`;
const metricsToken = randomBytes(24).toString("base64url");
const [webPort, brokerPort, workerPort, platformPort] = [0, 1, 2, 3].map((i) => PORT_BASE + i) as [
  number,
  number,
  number,
  number,
];
const platformUrl = `http://127.0.0.1:${platformPort}`;
const common = { ...env, LOG_LEVEL: process.env.LOG_LEVEL, METRICS_TOKEN: metricsToken, NEXT_TELEMETRY_DISABLED: "1" };
const engine = { JOB_QUEUE: queue, DEMO_PLATFORM_URL: platformUrl, CALLBACK_ALLOW_PRIVATE: "1" };
const processes: ClusterProcess[] = [
  new ClusterProcess("platform", "platform", platformPort, {
    ...common,
    DEMO_PLATFORM_PORT: String(platformPort),
    DEMO_PLATFORM_HOST: "127.0.0.1",
  }),
  new ClusterProcess("broker", "broker", brokerPort, {
    ...common,
    BROKER_PORT: String(brokerPort),
    BROKER_HOST: "127.0.0.1",
    BROKER_NODE_ID: `soak-${stamp}`,
    JOIN_RATE_PER_MINUTE: "1000",
  }),
  new ClusterProcess("worker", "worker", workerPort, {
    ...common,
    ...engine,
    WORKER_PORT: String(workerPort),
    WORKER_HOST: "127.0.0.1",
  }),
  new ClusterProcess(
    "web",
    "web",
    webPort,
    {
      ...common,
      ...engine,
      PORT: String(webPort),
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: `http://127.0.0.1:${webPort}`,
      PUBLIC_BROKER_URL: `ws://127.0.0.1:${brokerPort}`,
    },
    DEV,
  ),
];
const named = (kind: Kind) => processes.find((p) => p.kind === kind) as ClusterProcess;
const killAll = () => processes.forEach((p) => void p.kill());
process.once("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

/** Resident memory of a process group (the process and whatever it started), from /proc. */
function groupRssBytes(pgid: number | undefined): number {
  if (pgid === undefined) return NaN;
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue; // state, ppid, pgrp
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      total += Number(rss?.[1] ?? 0) * 1024;
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}

// ---- jobs: an API key, a scraper version against the demo platform, a callback receiver ----------
const version = await db.scraperVersion.create({
  data: { platform: "platform", version: `soak-${stamp}`, variant: "default", implementation: "http-json" },
});
const key = await createApiKey(
  serviceContext(SYSTEM, { db, sealer: sealerOf(env.SECRETS_KEYS ?? "") }),
  ZCreateApiKeyInput.parse({
    name: `soak-${stamp}`,
    scopes: ["jobs:read", "jobs:write"],
    rate_limit_per_minute: 100_000,
  }),
);
const submittedAt = new Map<string, number>();
/** Callbacks that arrived before their POST's answer was read (a slow answer): id → arrival, outcome. */
const early = new Map<string, { arrived: number; status: string | undefined }>();
function jobEnded(id: string, start: number, arrived: number, status: string | undefined): void {
  if (status && status !== "succeeded") fail("jobs", `job ${id} ${status}`);
  else record("jobs", arrived - start);
}
const callbacks = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    const arrived = performance.now();
    res.writeHead(200).end();
    try {
      const event = JSON.parse(body) as { type?: string; data?: { id?: string; status?: string } };
      const id = event.data?.id ?? "";
      const start = submittedAt.get(id);
      if (event.type !== "job.completed") return;
      if (start === undefined) return void early.set(id, { arrived, status: event.data?.status });
      submittedAt.delete(id);
      jobEnded(id, start, arrived, event.data?.status);
    } catch {
      fail("jobs", "a callback that is not JSON");
    }
  });
});
await new Promise<void>((resolve) => callbacks.listen(0, "127.0.0.1", resolve));
const callbackUrl = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}/hook`;

let running = true;
const loops: Promise<void>[] = [];
/** Calls `fn` every `intervalMs` (started on a fixed schedule, not after the previous one ended). */
function every(intervalMs: number, fn: (n: number) => Promise<void>): void {
  const inFlight = new Set<Promise<void>>();
  loops.push(
    (async () => {
      const start = performance.now();
      for (let n = 0; running; n++) {
        const p: Promise<void> = fn(n).finally(() => inFlight.delete(p));
        inFlight.add(p);
        await sleep(Math.max(0, start + (n + 1) * intervalMs - performance.now()));
      }
      await Promise.all([...inFlight]);
    })(),
  );
}

async function submitJob(n: number): Promise<void> {
  const web = named("web");
  const t = performance.now();
  try {
    const res = await fetch(`${web.url}/api/scrape/platform-reviews`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        requester_client_id: "soak",
        callback_url: callbackUrl,
        platform_id: `p-${String((n % 40) + 1).padStart(4, "0")}`,
        scraper_version: version.version,
        review_limit: 20,
      }),
      signal: AbortSignal.timeout(30_000),
    });
    const json = (await res.json()) as { id?: string };
    if (res.status !== 200 || !json.id) fail("jobs", `POST answered ${res.status} ${JSON.stringify(json)}`);
    else {
      const done = early.get(json.id);
      if (done) jobEnded(json.id, t, done.arrived, done.status);
      else submittedAt.set(json.id, t);
      early.delete(json.id);
    }
  } catch (error) {
    fail("jobs", `POST: ${(error as Error).message}`);
  }
}

// ---- pages: a real credentials sign-in of the demo user ----------------------------------------
const web = named("web");
async function signIn(): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = (pair ?? "").indexOf("=");
      if (eq > 0) jar.set((pair ?? "").slice(0, eq), (pair ?? "").slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${web.url}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${web.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), origin: web.url },
    body: new URLSearchParams({
      csrfToken,
      email: "user@example.com",
      password: "user-demo-password",
      callbackUrl: `${web.url}/en/dashboard`,
    }),
  });
  await res.body?.cancel();
  keep(res);
  if (![...jar.keys()].some((k) => k.includes("session-token")))
    throw new Error(`the demo user's sign-in gave no session cookie (${res.status})`);
  return cookie();
}
const PAGES = ["/en", "/en/dashboard", "/en/dashboard/settings"];
let session = "";
async function loadPage(n: number): Promise<void> {
  const path = PAGES[n % PAGES.length] as string;
  const t = performance.now();
  try {
    const res = await fetch(`${web.url}${path}`, {
      headers: { cookie: session },
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    await res.text();
    if (res.status !== 200) fail("pages", `${path} answered ${res.status}`);
    else record("pages", performance.now() - t);
  } catch (error) {
    fail("pages", `${path}: ${(error as Error).message}`);
  }
}

// ---- messages ------------------------------------------------------------------------------------
const sentAt = new Map<string, number>();
let mesh: Awaited<ReturnType<typeof meshPeers>> | undefined;
async function sendMessage(peerIndex: number, n: number): Promise<void> {
  const peers = mesh?.peers ?? [];
  const from = peers[peerIndex];
  const to = peers[(peerIndex + 1) % peers.length];
  if (!from || !to) return;
  const text = `soak ${peerIndex} #${n} ${"x".repeat(200)}`;
  sentAt.set(text, performance.now());
  try {
    await from.client.send(text, { to: [to.memberId] });
  } catch (error) {
    sentAt.delete(text);
    fail("messages", `${from.name}: ${(error as Error).message}`);
  }
}

// ---- the minute lines ----------------------------------------------------------------------------
const memory = new Map<string, { at: number; bytes: number }[]>(processes.map((p) => [p.name, []]));
const sampleMemory = () => {
  for (const p of processes) memory.get(p.name)?.push({ at: since(), bytes: groupRssBytes(p.pid) });
};
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const pcts = (values: number[]) =>
  values.length === 0
    ? "-"
    : `${[50, 95, 99].map((p) => percentile(values, p).toFixed(0)).join("/")} ms (n=${values.length})`;

async function depths(): Promise<string> {
  const [queued, runningJobs, undelivered] = await Promise.all([
    db.job.count({ where: { queue, status: "queued" } }),
    db.job.count({ where: { queue, status: "running" } }),
    db.messageRecipient.count(),
  ]);
  return `jobs queued ${queued} running ${runningJobs}, undelivered messages ${undelivered}`;
}

async function minuteLine(minute: number): Promise<void> {
  const from = (minute - 1) * 60_000;
  const to = minute * 60_000;
  const inMinute = (kind: LoadKind) => samples[kind].filter((s) => s.at >= from && s.at < to).map((s) => s.ms);
  const rss = processes.map((p) => `${p.name} ${mb(memory.get(p.name)?.at(-1)?.bytes ?? NaN)}`).join(", ");
  const lat = KINDS.map((k) => `${k} ${pcts(inMinute(k))}`).join(" | ");
  const errs = KINDS.map((k) => errors[k].length).reduce((a, b) => a + b, 0);
  console.log(
    `min ${String(minute).padStart(2)} | RSS ${rss} | p50/p95/p99 ${lat} | ${await depths()} | errors ${errs}`,
  );
}

// ---- run -----------------------------------------------------------------------------------------
let exitCode = 1;
try {
  for (const p of processes) await p.start(DEV ? 300_000 : 120_000);
  mesh = await meshPeers(db, [named("broker")], PEERS);
  for (const peer of mesh.peers) {
    peer.client.on("message", (m) => {
      const start = sentAt.get(m.text);
      if (start === undefined) return;
      sentAt.delete(m.text);
      record("messages", performance.now() - start);
    });
  }
  session = await signIn();
  // Warm-up (not measured): each page twice, one job to its callback, a message from every peer.
  for (let i = 0; i < PAGES.length * 2; i++) await loadPage(i);
  await submitJob(0);
  for (let i = 0; i < 600 && submittedAt.size > 0; i++) await sleep(100);
  await Promise.all(mesh.peers.map((_, i) => sendMessage(i, -1)));
  await sleep(1_000);
  sentAt.clear();

  console.log(
    `soak: ${minutes} min, web (${DEV ? "development mode" : "production build"}), broker, worker, demo platform; ` +
      `${PEERS} peers, ${MESSAGES_PER_S} messages/s, ${JOBS_PER_MIN} jobs/min, ${PAGES_PER_S} pages/s; ` +
      `drift windows: first and last ${(windowMs / 60_000).toFixed(1)} min`,
  );
  t0 = performance.now();
  measuring = true;
  const perPeerMs = (1000 * PEERS) / MESSAGES_PER_S;
  mesh.peers.forEach((_, i) => every(perPeerMs, (n) => sendMessage(i, n)));
  every(60_000 / JOBS_PER_MIN, (n) => submitJob(n + 1));
  every(1000 / PAGES_PER_S, loadPage);
  sampleMemory();
  const sampler = setInterval(sampleMemory, 10_000);
  const wholeMinutes = Math.ceil(minutes);
  for (let m = 1; m <= wholeMinutes; m++) {
    await sleep(Math.max(0, Math.min(m * 60_000, durationMs) - since()));
    sampleMemory();
    await minuteLine(m);
  }
  running = false;
  clearInterval(sampler);
  const end = Math.min(since(), durationMs);
  await Promise.all(loops);
  await sleep(2_000); // the last messages and callbacks on their way
  measuring = false;

  // ---- drift ----
  const first = (at: number) => at < windowMs;
  const last = (at: number) => at >= end - windowMs && at <= end;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const growth = (a: number, b: number) => ((b - a) / a) * 100;
  const missed: string[] = [];
  console.log(`drift, first ${(windowMs / 60_000).toFixed(1)} min against last ${(windowMs / 60_000).toFixed(1)} min:`);
  for (const p of processes) {
    const points = memory.get(p.name) ?? [];
    const a = mean(points.filter((s) => first(s.at)).map((s) => s.bytes));
    const b = mean(points.filter((s) => last(s.at)).map((s) => s.bytes));
    const g = growth(a, b);
    const ok = g <= MEMORY_GOAL_PCT;
    if (!ok) missed.push(`${p.name} memory +${g.toFixed(1)} %`);
    console.log(
      `  memory ${p.name.padEnd(8)} ${mb(a).padStart(7)} -> ${mb(b).padStart(7)}  ${g >= 0 ? "+" : ""}${g.toFixed(1)} %  (goal <= ${MEMORY_GOAL_PCT} %) ${ok ? "met" : "MISSED"}`,
    );
  }
  for (const k of KINDS) {
    const a = samples[k].filter((s) => first(s.at)).map((s) => s.ms);
    const b = samples[k].filter((s) => last(s.at)).map((s) => s.ms);
    const pa = percentile(a, 99);
    const pb = percentile(b, 99);
    const g = growth(pa, pb);
    const ok = a.length > 0 && b.length > 0 && g <= P99_GOAL_PCT;
    if (!ok) missed.push(`${k} p99 ${Number.isFinite(g) ? `${g >= 0 ? "+" : ""}${g.toFixed(1)} %` : "not measured"}`);
    console.log(
      `  p99 ${k.padEnd(11)} ${pa.toFixed(0).padStart(6)} ms -> ${pb.toFixed(0).padStart(6)} ms  ${Number.isFinite(g) ? `${g >= 0 ? "+" : ""}${g.toFixed(1)} %` : "n/a"}  (n=${a.length}/${b.length}, goal <= ${P99_GOAL_PCT} %) ${ok ? "met" : "MISSED"}`,
    );
  }
  for (const k of KINDS) {
    const total = samples[k].length;
    console.log(
      `  ${k}: ${total} completed, ${errors[k].length} failed${errors[k][0] ? ` (first: ${errors[k][0]})` : ""}`,
    );
    if (errors[k].length > 0) missed.push(`${k}: ${errors[k].length} failed`);
  }
  console.log(
    `  still open at the end: ${submittedAt.size} jobs without a callback, ${sentAt.size} messages not received`,
  );
  console.log(missed.length === 0 ? "goal met" : `goal MISSED: ${missed.join("; ")}`);
  exitCode = missed.length === 0 ? 0 : 1;
} finally {
  running = false;
  await mesh?.close();
  for (const p of [...processes].reverse()) await p.stop();
  process.off("exit", killAll);
  await new Promise<void>((resolve) => (callbacks.close(() => resolve()), callbacks.closeAllConnections()));
  await db.$disconnect();
  if (database.embedded?.owned) await database.embedded.stop();
}
process.exit(exitCode);
