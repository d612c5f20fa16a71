/**
 * The broker's message statements alone, without a broker (docs/performance.md): batches of 1 KB direct
 * messages stored with `insertMessages` and acknowledged with `ackMessages` by two lanes at once, as
 * one broker node does at saturation, on the bench database. Prints messages/s and the CPU PostgreSQL
 * spent a message (the postmaster and its backends, from /proc), the figure the schema and statement
 * changes of the broker's store are judged by, beside a baseline measured in the same run: the same
 * ciphertexts inserted into a bare table (a uuid key and the bytes, one statement a batch) and deleted
 * by key a batch later, the least a database that keeps every message before answering can do.
 * `--read-back` adds to every stored batch the read another node makes of its notification.
 * `--latency` instead times calls one at a time on one connection (p50/p90/p99 of 1,500 after 200 of
 * warm-up): the store of one message beside `SELECT 1` and a bare 1 KB insert, each committed with and
 * without waiting for the disk, and an ack of one message (its transaction does not wait).
 *   npx tsx bench/message-store.ts [seconds] [--batch N] [--read-back] [--latency]
 */
import pg from "pg";
import { randomBytes } from "node:crypto";
import { createDb } from "../src/server/core/db";
import { uuidv7 } from "../src/server/core/ids";
import { ackMessages, insertMessages, queuedInRange, type NewMessage } from "../broker/store/message-store";
import { makePeers, PAYLOAD, removePeers, resetMessageTables, setBenchEnv } from "./broker-load";
import { postmasterPidOf, treeCpuSeconds } from "./cpu";
import { benchDatabase, percentile, timeRuns } from "./lib";

const args = process.argv.slice(2);
const seconds = Number(args.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 10);
const BATCH = args.includes("--batch") ? Number(args[args.indexOf("--batch") + 1]) : 400;
const LANES = 2;
const readBack = args.includes("--read-back");
const latencyOnly = args.includes("--latency");
const TTL_MS = 86_400_000;

const ready = await benchDatabase("bench_store");
const db = createDb(ready.url);
setBenchEnv(ready.url, 4510);
const pool = new pg.Pool({ connectionString: ready.url, max: 2 * LANES });
const pgPid = await postmasterPidOf(db);

interface Result {
  perSecond: number;
  pgMsPerMessage: number;
  clientMsPerMessage: number;
}

type Store = (items: NewMessage[]) => Promise<void>;
type Ack = (items: NewMessage[]) => Promise<void>;

/** The broker's own statements: insertMessages, the other node's read when asked, ackMessages. */
const brokerStatements: [Store, Ack] = [
  async (items) => {
    const done = await insertMessages(pool, items, TTL_MS, { channel: "bench_store", nodeId: "bench" });
    if (readBack) {
      // What another node does with the batch's notification: its recipients' rows of the seq range.
      const seqs = done.map((m) => Number(m!.seq));
      await queuedInRange(
        pool,
        [...new Set(items.map((m) => m.recipients[0]!))],
        String(Math.min(...seqs)),
        String(Math.max(...seqs)),
      );
    }
  },
  async (items) => {
    await ackMessages(
      pool,
      items.map((m) => ({ memberId: m.recipients[0]!, envelopeId: m.id })),
    );
  },
];

/** The baseline: the ciphertexts into a bare table and out again by key. */
const bareStatements: [Store, Ack] = [
  async (items) => {
    await pool.query("INSERT INTO bench_store_bare (id, body) SELECT * FROM unnest($1::uuid[], $2::bytea[])", [
      items.map((m) => m.id),
      items.map((m) => m.ciphertext),
    ]);
  },
  async (items) => {
    if (items.length)
      await pool.query("DELETE FROM bench_store_bare WHERE id = ANY($1::uuid[])", [items.map((m) => m.id)]);
  },
];

/** The n-th 1 KB direct message of a mesh: from its (n mod size)-th member to the next. */
function directMessage(mesh: { meshId: string; memberId: string }[], n: number, body: Buffer): NewMessage {
  const from = mesh[n % mesh.length]!;
  const to = mesh[(n + 1) % mesh.length]!;
  return {
    id: uuidv7(),
    meshId: from.meshId,
    senderMemberId: from.memberId,
    targetSpec: { kind: "peer", memberId: to.memberId },
    priority: "normal",
    ciphertext: body,
    recipients: [to.memberId],
    clientId: `c${n + 1}`,
  };
}

/** Each measurement starts from empty message tables and an empty bare table. */
async function emptyTables(): Promise<void> {
  await resetMessageTables(db);
  await pool.query("TRUNCATE bench_store_bare");
}

async function measure(peers: { meshId: string; memberId: string }[][], [store, ack]: [Store, Ack]): Promise<Result> {
  await emptyTables();
  const body = randomBytes(PAYLOAD);
  let n = 0;
  const batch = (): NewMessage[] =>
    Array.from({ length: BATCH }, () => directMessage(peers[n % peers.length]!, n++, body));
  let stored = 0;
  let until = 0;
  // Each lane stores a batch, then acknowledges the batch it stored before (the acks trail the stores,
  // as a recipient's do), so the tables hold a standing backlog as in a broker's run.
  const lane = async (counting: () => boolean) => {
    let previous: NewMessage[] = [];
    while (performance.now() < until) {
      const items = batch();
      await store(items);
      await ack(previous);
      previous = items;
      if (counting()) stored += items.length;
    }
  };
  // Warm-up of two seconds, then the measured window.
  until = performance.now() + 2_000;
  await Promise.all(Array.from({ length: LANES }, () => lane(() => false)));
  const cpu0 = pgPid ? treeCpuSeconds(pgPid) : Number.NaN;
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  until = t0 + seconds * 1_000;
  await Promise.all(Array.from({ length: LANES }, () => lane(() => true)));
  const elapsed = (performance.now() - t0) / 1_000;
  const cpu = (pgPid ? treeCpuSeconds(pgPid) : Number.NaN) - cpu0;
  const own = process.cpuUsage(own0);
  return {
    perSecond: stored / elapsed,
    pgMsPerMessage: (cpu * 1_000) / stored,
    clientMsPerMessage: (own.user + own.system) / 1_000 / stored,
  };
}

/** One call at a time on one connection: what a message waits for at a low rate. */
async function latencies(peers: { meshId: string; memberId: string }[][]): Promise<void> {
  await emptyTables();
  const body = randomBytes(PAYLOAD);
  let n = 0;
  const client = await pool.connect();
  const time = async (name: string, call: () => Promise<unknown>) => {
    const took = await timeRuns(1_500, call, 200);
    console.log(
      `${name.padEnd(48)} p50 ${percentile(took, 50).toFixed(3)} ms   p90 ${percentile(took, 90).toFixed(3)} ms   p99 ${percentile(took, 99).toFixed(3)} ms`,
    );
  };
  const stored: NewMessage[] = [];
  try {
    for (const mode of ["on", "off"]) {
      await client.query(`SET synchronous_commit = ${mode}`);
      const how = mode === "on" ? "waits for the disk" : "does not wait";
      await time(`SELECT 1`, () => client.query("SELECT 1"));
      await time(`bare 1 KB insert, commit ${how}`, () =>
        client.query("INSERT INTO bench_store_bare (id, body) VALUES ($1, $2)", [uuidv7(), body]),
      );
      await time(`store of one message, commit ${how}`, async () => {
        const m = directMessage(peers[0]!, n++, body);
        await insertMessages(client, [m], TTL_MS, { channel: "bench_store", nodeId: "bench" });
        stored.push(m);
      });
    }
    await client.query("RESET synchronous_commit");
    await time("ack of one message (does not wait)", async () => {
      const m = stored.shift();
      if (m) await ackMessages(client, [{ memberId: m.recipients[0]!, envelopeId: m.id }]);
    });
  } finally {
    client.release();
  }
}

try {
  const peers = await makePeers(db, 10, 10, "store");
  await pool.query("CREATE TABLE IF NOT EXISTS bench_store_bare (id uuid PRIMARY KEY, body bytea NOT NULL)");
  if (latencyOnly) {
    console.log(`calls one at a time on one connection, ${PAYLOAD} B messages`);
    await latencies(peers);
  } else {
    console.log(
      `store + ack of ${PAYLOAD} B direct messages, batches of ${BATCH}, ${LANES} lanes, ${seconds} s${readBack ? ", each batch read back" : ""}`,
    );
    const line = (name: string, r: Result) =>
      console.log(
        `${name.padEnd(40)} ${r.perSecond.toFixed(0).padStart(7)} msg/s   PostgreSQL ${r.pgMsPerMessage.toFixed(4)} ms CPU a message   client ${r.clientMsPerMessage.toFixed(4)} ms`,
      );
    line("bare table: insert, delete by key", await measure(peers, bareStatements));
    line("broker: store and ack", await measure(peers, brokerStatements));
  }
} finally {
  await pool.end();
  await removePeers(db);
  await db.$disconnect();
  if (ready.embedded?.owned) await ready.embedded.stop();
}
