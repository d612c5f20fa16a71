/**
 * Where the broker's time goes at saturation (docs/performance.md): the saturating run of
 * bench/broker.ts against a broker started with `--cpu-prof`, and PostgreSQL's statement statistics
 * (pg_stat_statements) for the same run. Prints the profile's self time by area (JSON, validation, ws
 * framing, pg encode/decode, the broker's own code, garbage collection, idle) and its top functions,
 * then the statements by total time with calls, rows and time per call.
 * The bench server needs `shared_preload_libraries = 'pg_stat_statements'`: the first run sets it and
 * restarts the embedded server (a server of DATABASE_URL must have it set by its operator).
 * `--nodes 2` runs two profiled brokers with the peers of each mesh dealt to both (every message
 * crosses nodes, as in bench/broker.ts's two-node run); the profile shown is the first node's.
 * `--rate N` profiles an evenly paced N messages/s instead of saturation (bench/broker.ts's fixed run), after the
 * same warm-up (5,000 messages, 1 to 10 s), which the profile includes.
 *   npx tsx bench/broker-profile.ts [seconds] [--nodes 2] [--rate N] [--keep]   (--keep leaves the .cpuprofile in .data/profiles)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { createDb } from "../src/server/core/db";
import { startBroker, stop, waitForLinks, waitHttp } from "./broker-process";
import { benchBrokerEnv, makePeers, removePeers, resetMessageTables, run, setBenchEnv } from "./broker-load";
import { cpuSeconds, CpuWindow, ownCpuSeconds, postmasterPidOf, treeCpuSeconds } from "./cpu";
import { benchDatabase } from "./lib";
import { summariseProfile, type CpuProfile } from "./profile-summary";

const args = process.argv.slice(2);
// The run's length is the number that is not the value of --nodes or --rate.
const seconds = Number(
  args.find((a, i) => /^\d+(\.\d+)?$/.test(a) && args[i - 1] !== "--nodes" && args[i - 1] !== "--rate") ?? 10,
);
const BROKER_PORT = Number(process.env.BENCH_BROKER_PORT ?? 4510);
const nodes = args.includes("--nodes") ? Number(args[args.indexOf("--nodes") + 1]) : 1;
const rate = args.includes("--rate") ? Number(args[args.indexOf("--rate") + 1]) : undefined;
if (rate !== undefined && !(rate > 0)) throw new Error("--rate is a number of messages a second");
if (nodes !== 1 && nodes !== 2) throw new Error("--nodes is 1 or 2");
const dir = path.resolve(".data/profiles");

let ready = await benchDatabase("bench_broker");
let db = createDb(ready.url, { max: 2 });
const [loaded] = await db.$queryRaw<
  { setting: string }[]
>`SELECT setting FROM pg_settings WHERE name = 'shared_preload_libraries'`;
if (!loaded?.setting.includes("pg_stat_statements")) {
  if (!ready.embedded?.owned)
    throw new Error("the database server needs shared_preload_libraries = 'pg_stat_statements'");
  await db.$executeRawUnsafe("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
  await db.$disconnect();
  await ready.embedded.stop();
  ready = await benchDatabase("bench_broker");
  db = createDb(ready.url, { max: 2 });
}
await db.$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
setBenchEnv(ready.url, BROKER_PORT);

try {
  const groups = await makePeers(db, 10, 10, "profile");
  await resetMessageTables(db);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const ports = Array.from({ length: nodes }, (_, i) => BROKER_PORT + 2 * i);
  const brokers = ports.map((port, i) =>
    startBroker(benchBrokerEnv(ready.url, port, `bench-profile-${i}`), [
      "--cpu-prof",
      `--cpu-prof-dir=${path.join(dir, String(i))}`,
    ]),
  );
  for (const port of ports) await waitHttp(`http://127.0.0.1:${port}/health`);
  if (nodes > 1) await waitForLinks(ports.map((port) => `http://127.0.0.1:${port}`));
  let stored = 0;
  // CPU of each process over the measured window: the figure a change is judged by when the
  // machine's speed moves between runs (the rate follows it; the CPU a message costs much less).
  const pgPid = await postmasterPidOf(db);
  const cpu = new CpuWindow({
    brokers: () => brokers.reduce((sum, b) => sum + (b.pid ? cpuSeconds(b.pid) : 0), 0),
    postgres: () => (pgPid ? treeCpuSeconds(pgPid) : Number.NaN),
    generator: ownCpuSeconds,
  });
  const result = await run(
    ports.map((port) => `ws://127.0.0.1:${port}`),
    groups,
    true,
    rate ? { rate } : "max",
    seconds,
    {
      start: async () => {
        await db.$executeRawUnsafe("SELECT pg_stat_statements_reset()");
        cpu.start();
      },
      end: async () => {
        cpu.end();
        const [row] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM message_envelopes`;
        stored = Number(row?.n ?? 0);
      },
    },
  );
  const statements = await db.$queryRaw<
    { query: string; calls: bigint; rows: bigint; total_ms: number; mean_ms: number }[]
  >`
    SELECT query, calls, rows, total_exec_time AS total_ms, mean_exec_time AS mean_ms
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    ORDER BY total_exec_time DESC LIMIT 12`;
  for (const broker of brokers) await stop(broker);
  console.log(
    `${nodes === 1 ? "broker" : "two brokers"} ${rate ? `at ${rate}/s` : "at saturation"}: ${result.perSecond.toFixed(0)} msg/s delivered, p50 ${result.p50.toFixed(0)} ms; ${stored} envelopes in the table`,
  );
  const perMessage = [...cpu.shares].map(
    ([name, share]) => `${name} ${((share * 1e6) / result.perSecond).toFixed(0)} us`,
  );
  const total = [...cpu.shares.values()].reduce((a, b) => a + b, 0);
  console.log(
    `CPU: ${cpu.describe()}; a message: ${perMessage.join(", ")}, all ${((total * 1e6) / result.perSecond).toFixed(0)} us`,
  );
  const first = path.join(dir, "0");
  const file = readdirSync(first).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error("no profile written");
  const profile = JSON.parse(readFileSync(path.join(first, file), "utf8")) as CpuProfile;
  console.log(summariseProfile(profile, 25));
  const messages = result.perSecond * seconds;
  console.log(`\nstatements by total time (${seconds} s; per delivered message: calls and ms)`);
  for (const s of statements) {
    const text = s.query.replace(/\s+/g, " ").slice(0, 110);
    console.log(
      `${Number(s.total_ms).toFixed(0).padStart(7)} ms ${String(s.calls).padStart(7)} calls ${String(s.rows).padStart(8)} rows ` +
        `${Number(s.mean_ms).toFixed(2).padStart(7)} ms/call ${(Number(s.calls) / messages).toFixed(3)} calls/msg ${(Number(s.total_ms) / messages).toFixed(3)} ms/msg  ${text}`,
    );
  }
  if (!args.includes("--keep")) rmSync(dir, { recursive: true, force: true });
} finally {
  await removePeers(db);
  await db.$disconnect();
  if (ready.embedded?.owned) await ready.embedded.stop();
}
