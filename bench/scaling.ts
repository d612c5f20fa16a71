/**
 * How far one PostgreSQL goes (docs/scaling.md), on the bench database, in one run:
 *   1. persisted messages/s with one broker node, then with two (the peers of each mesh dealt to both
 *      nodes in turn, so every message crosses nodes by its NOTIFY and its copy on the nodes' link), with the CPU each side used
 *      (brokers, PostgreSQL, the load generator), writing transactions/s and the connections held;
 *   2. NOTIFY fan-out: notifications/s that 8 publishing connections send and each of 1, 2 and 4
 *      listening connections receives, beside plain round trips with the same payload on the same
 *      connections (the baseline: what the publishers do without NOTIFY).
 * Jobs/s end to end are measured by bench/jobs.ts.
 *   npx tsx bench/scaling.ts [seconds per run]
 */
import pg from "pg";
import { createDb } from "../src/server/core/db";
import { startBroker, stop, waitForLinks, waitHttp } from "./broker-process";
import {
  benchBrokerEnv,
  makePeers,
  removePeers,
  resetMessageTables,
  run,
  type RunResult,
  setBenchEnv,
  WINDOW,
} from "./broker-load";
import { CpuWindow, cpuSeconds, ownCpuSeconds, postmasterPidOf, treeCpuSeconds } from "./cpu";
import { benchDatabase } from "./lib";

const seconds = Number(process.argv.slice(2).find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 10);
const BASE_PORT = Number(process.env.BENCH_BROKER_PORT ?? 4510);
const MESHES = 10;
const PER_MESH = 10;
const PUBLISHERS = 8;
const NOTIFY_PAYLOAD = "x".repeat(512);

const ready = await benchDatabase("bench_scaling");
const db = createDb(ready.url);
setBenchEnv(ready.url, BASE_PORT);

const pgPid = await postmasterPidOf(db);
const [maxConnections] = await db.$queryRaw<{ max_connections: string }[]>`SHOW max_connections`;

/** The server's next transaction id: the difference of two readings counts the writing transactions between them (plus one). */
async function writeTransactions(): Promise<number> {
  const [row] = await db.$queryRaw<{ n: string }[]>`SELECT txid_current()::text AS n`;
  return Number(row?.n ?? 0);
}

async function connectionsHeld(): Promise<number> {
  const [row] = await db.$queryRaw<
    { n: bigint }[]
  >`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()`;
  return Number(row?.n ?? 0);
}

/** Rows written and removed in the message tables so far, dead rows now, and their size with indexes. */
async function messageTables(): Promise<{
  inserted: number;
  deleted: number;
  updated: number;
  dead: number;
  bytes: number;
  envelopes: number;
}> {
  const [row] = await db.$queryRaw<
    { ins: bigint; del: bigint; upd: bigint; dead: bigint; bytes: bigint; env: bigint }[]
  >`
    SELECT sum(n_tup_ins) AS ins, sum(n_tup_del) AS del, sum(n_tup_upd) AS upd, sum(n_dead_tup) AS dead,
      sum(pg_total_relation_size(relid)) AS bytes, sum(n_tup_ins) FILTER (WHERE relname = 'message_envelopes') AS env
    FROM pg_stat_user_tables WHERE relname IN ('message_envelopes', 'message_recipients', 'message_deliveries')`;
  return {
    inserted: Number(row?.ins ?? 0),
    deleted: Number(row?.del ?? 0),
    updated: Number(row?.upd ?? 0),
    dead: Number(row?.dead ?? 0),
    bytes: Number(row?.bytes ?? 0),
    envelopes: Number(row?.env ?? 0),
  };
}

interface NodeRun {
  result: RunResult;
  cpu: CpuWindow;
  transactionsPerSecond: number;
  connections: number;
}

async function messages(nodes: number, groups: Awaited<ReturnType<typeof makePeers>>): Promise<NodeRun> {
  const brokers = Array.from({ length: nodes }, (_, i) =>
    startBroker(benchBrokerEnv(ready.url, BASE_PORT + 2 * i, `bench-${i}`)),
  );
  try {
    await Promise.all(brokers.map((_, i) => waitHttp(`http://127.0.0.1:${BASE_PORT + 2 * i}/health`)));
    if (nodes > 1) await waitForLinks(brokers.map((_, i) => `http://127.0.0.1:${BASE_PORT + 2 * i}`));
    const cpu = new CpuWindow({
      [nodes === 1 ? "broker" : "brokers"]: () => brokers.reduce((sum, b) => sum + cpuSeconds(b.pid ?? 0), 0),
      postgres: () => (pgPid ? treeCpuSeconds(pgPid) : Number.NaN),
      "load generator": ownCpuSeconds,
    });
    let xacts = 0;
    let connections = 0;
    const t = { at: 0 };
    const result = await run(
      brokers.map((_, i) => `ws://127.0.0.1:${BASE_PORT + 2 * i}`),
      groups,
      true,
      "max",
      seconds,
      {
        start: async () => {
          xacts = await writeTransactions();
          t.at = performance.now();
          cpu.start();
        },
        end: async () => {
          cpu.end();
          connections = await connectionsHeld();
          xacts = (await writeTransactions()) - xacts - 1;
        },
      },
    );
    return { result, cpu, transactionsPerSecond: xacts / seconds, connections };
  } finally {
    await Promise.all(brokers.map((b) => stop(b)));
  }
}

/** Sends for `seconds` from PUBLISHERS connections, each with one statement in flight: statements/s. */
async function pump(pool: pg.Pool, sql: string, params: unknown[]): Promise<{ perSecond: number; elapsed: number }> {
  let count = 0;
  const until = performance.now() + seconds * 1_000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: PUBLISHERS }, async () => {
      while (performance.now() < until) {
        await pool.query(sql, params);
        count++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1_000;
  return { perSecond: count / elapsed, elapsed };
}

async function fanOut(listeners: number): Promise<{ sent: number; received: number[] }> {
  const clients = await Promise.all(
    Array.from({ length: listeners }, async () => {
      const client = new pg.Client({ connectionString: ready.url });
      await client.connect();
      await client.query("LISTEN bench_fanout");
      return client;
    }),
  );
  const received = clients.map(() => 0);
  clients.forEach((c, i) => c.on("notification", () => received[i]!++));
  const pool = new pg.Pool({ connectionString: ready.url, max: PUBLISHERS });
  try {
    const { perSecond, elapsed } = await pump(pool, "SELECT pg_notify('bench_fanout', $1)", [NOTIFY_PAYLOAD]);
    // What was sent in the window and is still on its way counts: delivery is what is measured.
    await new Promise((r) => setTimeout(r, 1_000));
    return { sent: perSecond, received: received.map((n) => n / elapsed) };
  } finally {
    await pool.end();
    await Promise.all(clients.map((c) => c.end()));
  }
}

const rate = (n: number) => n.toFixed(0).padStart(7);
try {
  console.log(
    `${MESHES} meshes x ${PER_MESH} peers, 1 KB messages, window ${WINDOW} per peer, ${seconds} s per run; max_connections ${maxConnections?.max_connections}`,
  );
  const groups = await makePeers(db, MESHES, PER_MESH, "scale");
  await resetMessageTables(db);
  const tablesBefore = await messageTables();
  const one = await messages(1, groups);
  const two = await messages(2, groups);
  // The table counters reach pg_stat_user_tables within a second of each transaction.
  await new Promise((r) => setTimeout(r, 1_500));
  const tablesAfter = await messageTables();
  for (const [name, r] of [
    ["one broker node", one],
    ["two broker nodes (all cross-node)", two],
  ] as const) {
    console.log(
      `${name.padEnd(36)} ${rate(r.result.perSecond)} msg/s   p50 ${r.result.p50.toFixed(1)} ms   p99 ${r.result.p99.toFixed(1)} ms   ` +
        `${r.transactionsPerSecond.toFixed(0)} write transactions/s   ${r.connections} connections   CPU: ${r.cpu.describe()}`,
    );
  }
  console.log(`two nodes / one node: ${(two.result.perSecond / one.result.perSecond).toFixed(2)}`);
  const stored = tablesAfter.envelopes - tablesBefore.envelopes;
  const per = (n: number) => (n / stored).toFixed(2);
  console.log(
    `message tables, per stored message: ${per(tablesAfter.inserted - tablesBefore.inserted)} rows inserted, ${per(tablesAfter.updated - tablesBefore.updated)} updated, ` +
      `${per(tablesAfter.deleted - tablesBefore.deleted)} deleted; ${tablesAfter.dead} dead rows left for vacuum; ` +
      `${((tablesAfter.bytes - tablesBefore.bytes) / stored).toFixed(0)} bytes of table and index growth (${stored} messages)`,
  );

  const pool = new pg.Pool({ connectionString: ready.url, max: PUBLISHERS });
  const baseline = await pump(pool, "SELECT $1::text", [NOTIFY_PAYLOAD]);
  await pool.end();
  console.log(
    `round trips, ${PUBLISHERS} connections, 512 B payload (baseline)   ${rate(baseline.perSecond)} statements/s`,
  );
  for (const listeners of [1, 2, 4]) {
    const f = await fanOut(listeners);
    const least = Math.min(...f.received);
    console.log(
      `NOTIFY, ${PUBLISHERS} publishers, ${listeners} listener(s)`.padEnd(54) +
        `${rate(f.sent)} sent/s, each listener ${rate(least)}/s (${(least / baseline.perSecond).toFixed(2)} of the baseline; ${rate(least * listeners)} deliveries/s in all)`,
    );
  }
} finally {
  await removePeers(db);
  await db.$disconnect();
  if (ready.embedded?.owned) await ready.embedded.stop();
}
