/**
 * The broker under load, as its own process on a real database, side by side with a bare `ws` relay
 * without a database (bench/broker-relay.ts) in the same run:
 *   1. 100 peers in 10 meshes send 1 KB messages (each to the next peer of its mesh) as fast as a window
 *      of 16 unanswered sends per peer allows: messages/s and p50/p99 delivery latency;
 *   2. the same peers at a fixed 1,000 messages/s: p50/p99 latency;
 *   3. memory per idle connection with 5,000 connections (broker RSS and live heap before and after).
 * Goals on 2 cores: >= 5,000 persisted messages/s, p99 <= 25 ms at 1,000/s, <= 50 KB per idle connection.
 * Beside delivery latency (send → the recipient has it), "stored" is send → the sender's `sent`
 * (persisted). `--fixed-only` runs only the two fixed-rate runs (for looking into latency), `--idle-only`
 * only the idle-connection memory.
 *   npx tsx bench/broker.ts [seconds per run] [--fixed-only | --idle-only]
 */
import nacl from "tweetnacl";
import WebSocket from "ws";
import { signWsAuth, WS_AUTH_HEADER } from "../broker/protocol/ws-auth";
import { createDb, type Db } from "../src/server/core/db";
import { toBase64Url } from "../src/server/core/encoding";
import { createMesh } from "../src/server/services/meshes/create-mesh";
import { meshDeps } from "../src/server/services/context";
import { registerUser } from "../src/server/services/users/register-user";
import { benchDatabase, percentile } from "./lib";
import { settledMemory, startProcess, stop, waitHttp } from "./broker-process";

const args = process.argv.slice(2);
const fixedOnly = args.includes("--fixed-only");
const idleOnly = args.includes("--idle-only");
const seconds = Number(args.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 10);
const BROKER_PORT = Number(process.env.BENCH_BROKER_PORT ?? 4510);
const RELAY_PORT = Number(process.env.BENCH_RELAY_PORT ?? 4511);
const INSPECT_PORT = Number(process.env.BENCH_INSPECT_PORT ?? 4512);
const MESHES = 10;
const PER_MESH = 10;
const WINDOW = 16;
const PAYLOAD = 1024;

interface Peer {
  meshId: string;
  memberId: string;
  keys: nacl.SignKeyPair;
}

const ready = await benchDatabase("bench_broker");
const db = createDb(ready.url);
process.env.DATABASE_URL = ready.url;
process.env.AUTH_SECRET ??= "bench-auth-secret-0123456789abcdef0123456789";
process.env.SECRETS_KEYS ??= `kbench:${Buffer.alloc(32, 9).toString("base64")}`;
process.env.PUBLIC_BROKER_URL ??= `ws://127.0.0.1:${BROKER_PORT}`;

/** Meshes with members that have peer keys, inserted directly (joins are measured elsewhere). */
async function makePeers(db: Db, meshes: number, perMesh: number, tag: string): Promise<Peer[][]> {
  const user = await registerUser(db, { name: "Bench", email: `bench-${tag}-${Date.now()}@example.test`, password: "bench-password-long" });
  const out: Peer[][] = [];
  for (let m = 0; m < meshes; m++) {
    const mesh = await createMesh(meshDeps(db), { kind: "user", userId: user.id, isAdmin: false }, { name: `Bench ${m}`, slug: `bench-${tag}-${m}-${Date.now().toString(36)}` });
    const keys = Array.from({ length: perMesh }, () => nacl.sign.keyPair());
    const rows = await db.member.createManyAndReturn({
      data: keys.map((k, i) => ({ meshId: mesh.id, peerPubkey: toBase64Url(k.publicKey), displayName: `peer ${i}` })),
      select: { id: true, peerPubkey: true },
    });
    out.push(rows.map((r, i) => ({ meshId: mesh.id, memberId: r.id, keys: keys[i]! })));
  }
  return out;
}

interface Client {
  peer: Peer;
  ws: WebSocket;
  outstanding: number;
  onReceive?: (latencyMs: number) => void;
  onStored?: (latencyMs: number) => void;
  sentAt: Map<string, number>;
  pendingAcks: string[];
}

/** Opens a connection, waiting out retriable refusals (503 or 429, after Retry-After) up to 30 times. */
async function open(base: string, peer: Peer, withAuth: boolean): Promise<Client> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await openOnce(base, peer, withAuth);
    } catch (error) {
      const retryAfter = (error as { retryAfterMs?: number }).retryAfterMs;
      if (retryAfter === undefined || attempt >= 30) throw error;
      await new Promise((r) => setTimeout(r, retryAfter));
    }
  }
}

async function openOnce(base: string, peer: Peer, withAuth: boolean): Promise<Client> {
  const headers = withAuth ? { [WS_AUTH_HEADER]: signWsAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey }) } : {};
  const ws = new WebSocket(`${base}/ws?mesh=${peer.meshId}&member=${peer.memberId}`, { headers, perMessageDeflate: false });
  const client: Client = { peer, ws, outstanding: 0, pendingAcks: [], sentAt: new Map() };
  await new Promise<void>((resolve, reject) => {
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => {
      const seconds = Number(res.headers["retry-after"] ?? 1);
      const retriable = res.statusCode === 503 || res.statusCode === 429;
      res.resume();
      ws.terminate();
      reject(Object.assign(new Error(`HTTP ${res.statusCode}`), retriable ? { retryAfterMs: Math.max(1, seconds) * 1000 * (1 + Math.random() / 2) } : {}));
    });
    ws.on("message", (data) => {
      const text = String(data);
      // Cheap type check first: the hot path parses only what it needs.
      if (text.includes('"type":"welcome"')) return resolve();
      const frame = JSON.parse(text) as { type: string; id?: string; messageId?: string; ciphertext?: string };
      if (frame.type === "sent" || frame.type === "error") {
        client.outstanding -= 1;
        const at = frame.id ? client.sentAt.get(frame.id) : undefined;
        if (at !== undefined && frame.id) {
          client.sentAt.delete(frame.id);
          if (frame.type === "sent") client.onStored?.(performance.now() - at);
        }
      }
      else if (frame.type === "message" && frame.ciphertext) {
        const sentAt = Buffer.from(frame.ciphertext.slice(0, 12), "base64url").readDoubleLE(0);
        client.onReceive?.(performance.now() - sentAt);
        if (frame.messageId) client.pendingAcks.push(frame.messageId);
      }
    });
  });
  return client;
}

const filler = nacl.randomBytes(PAYLOAD);
function payload(): string {
  const bytes = Buffer.from(filler);
  bytes.writeDoubleLE(performance.now(), 0);
  return bytes.toString("base64url");
}

let seq = 0;
function send(from: Client, to: Client): void {
  from.outstanding += 1;
  const id = `b${++seq}`;
  from.sentAt.set(id, performance.now());
  from.ws.send(JSON.stringify({ v: 1, type: "send", id, to: { kind: "peer", memberId: to.peer.memberId }, ciphertext: payload() }));
}

function ackLoop(clients: Client[]): NodeJS.Timeout {
  return setInterval(() => {
    for (const c of clients) {
      if (c.pendingAcks.length === 0) continue;
      const ids = c.pendingAcks.splice(0, 500);
      c.ws.send(JSON.stringify({ v: 1, type: "ack", messageIds: ids }));
    }
  }, 50);
}

interface RunResult {
  perSecond: number;
  p50: number;
  p99: number;
  storedP50: number;
  storedP99: number;
}

/** Mode "max": keep WINDOW sends open per peer. Mode "rate": a fixed total rate. */
async function run(base: string, groups: Peer[][], withAuth: boolean, mode: "max" | { rate: number }): Promise<RunResult> {
  const clients = await Promise.all(groups.flat().map((p) => open(base, p, withAuth)));
  const byMesh = new Map<string, Client[]>();
  for (const c of clients) byMesh.set(c.peer.meshId, [...(byMesh.get(c.peer.meshId) ?? []), c]);
  const next = new Map<Client, Client>();
  for (const list of byMesh.values()) list.forEach((c, i) => next.set(c, list[(i + 1) % list.length]!));
  const latencies: number[] = [];
  let measuring = false;
  let received = 0;
  const stored: number[] = [];
  for (const c of clients) {
    c.onReceive = (ms) => measuring && (received++, latencies.push(ms));
    c.onStored = (ms) => measuring && stored.push(ms);
  }
  const acks = ackLoop(clients);
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  if (mode === "max") {
    const pump = () => {
      if (!running) return;
      for (const c of clients) while (c.outstanding < WINDOW) send(c, next.get(c)!);
      setImmediate(pump);
    };
    pump();
  } else {
    // Evenly paced: every millisecond tick sends what is due by the clock (no bursts of ten).
    const started = performance.now();
    let sent = 0;
    timer = setInterval(() => {
      const due = Math.floor(((performance.now() - started) * mode.rate) / 1_000);
      while (sent < due) {
        const c = clients[sent++ % clients.length]!;
        send(c, next.get(c)!);
      }
    }, 1);
  }
  await new Promise((r) => setTimeout(r, 1_000)); // warm-up
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1_000));
  const elapsed = (performance.now() - t0) / 1_000;
  measuring = false;
  running = false;
  clearInterval(timer);
  await new Promise((r) => setTimeout(r, 500));
  clearInterval(acks);
  for (const c of clients) c.ws.terminate();
  return { perSecond: received / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), storedP50: percentile(stored, 50), storedP99: percentile(stored, 99) };
}

const brokerEnv = {
  DATABASE_URL: ready.url,
  BROKER_PORT: String(BROKER_PORT),
  BROKER_HOST: "127.0.0.1",
  BROKER_NODE_ID: "bench",
  MAX_CONNECTIONS_PER_MESH: "100000",
  WS_AUTH_RATE_PER_MINUTE: "1000000",
  BROKER_DB_POOL_MAX: "8",
};
const row = (name: string, r: RunResult) =>
  `${name.padEnd(34)} ${r.perSecond.toFixed(0).padStart(7)} msg/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms` +
  (Number.isNaN(r.storedP50) ? "" : `   (stored p50 ${r.storedP50.toFixed(1)} ms, p99 ${r.storedP99.toFixed(1)} ms)`);

try {
  const groups = await makePeers(db, MESHES, PER_MESH, "load");
  console.log(`${MESHES} meshes x ${PER_MESH} peers, ${PAYLOAD} B messages, ${seconds} s per run, window ${WINDOW} per peer`);

  if (!idleOnly) {
    const relay = startProcess("bench/broker-relay.ts", { RELAY_PORT: String(RELAY_PORT) });
    await waitHttp(`http://127.0.0.1:${RELAY_PORT}/`);
    // The fixed rate first, on a fresh process: the max run leaves a backlog that is not part of it.
    const relayFixed = await run(`ws://127.0.0.1:${RELAY_PORT}`, groups, false, { rate: 1_000 });
    const relayMax = fixedOnly ? null : await run(`ws://127.0.0.1:${RELAY_PORT}`, groups, false, "max");
    await stop(relay);

    const broker = startProcess("broker/index.ts", brokerEnv);
    await waitHttp(`http://127.0.0.1:${BROKER_PORT}/health`);
    const brokerFixed = await run(`ws://127.0.0.1:${BROKER_PORT}`, groups, true, { rate: 1_000 });
    const brokerMax = fixedOnly ? null : await run(`ws://127.0.0.1:${BROKER_PORT}`, groups, true, "max");
    await stop(broker);

    if (relayMax && brokerMax) {
      console.log(row("bare ws relay (no database), max", relayMax));
      console.log(row("broker (persisted), max", brokerMax));
      console.log(`ratio broker / relay: ${(brokerMax.perSecond / relayMax.perSecond).toFixed(2)}; goal >= 5000 msg/s: ${brokerMax.perSecond >= 5_000 ? "met" : "MISSED"}`);
    }
    console.log(row("bare ws relay at 1000/s", relayFixed));
    console.log(row("broker at 1000/s", brokerFixed));
    console.log(`goal p99 <= 25 ms at 1000/s: ${brokerFixed.p99 <= 25 ? "met" : "MISSED"}`);

  }

  if (!fixedOnly) {
    // Memory per idle connection: a fresh broker, 5,000 authenticated connections that do nothing.
    const idle = await makePeers(db, 50, 100, "idle");
    // With an inspector on loopback: each memory reading follows a full collection (live objects only).
    const fresh = startProcess("broker/index.ts", { ...brokerEnv, BROKER_NODE_ID: "bench-idle" }, [`--inspect=127.0.0.1:${INSPECT_PORT}`]);
    await waitHttp(`http://127.0.0.1:${BROKER_PORT}/health`);
    const warm = await Promise.all(idle[0]!.slice(0, 20).map((p) => open(`ws://127.0.0.1:${BROKER_PORT}`, p, true)));
    await new Promise((r) => setTimeout(r, 1_000));
    const before = await settledMemory(`http://127.0.0.1:${BROKER_PORT}`, INSPECT_PORT);
    const sockets: Client[] = [...warm];
    const rest = idle.flat().filter((p) => !warm.some((w) => w.peer.memberId === p.memberId));
    for (let i = 0; i < rest.length; i += 100) sockets.push(...(await Promise.all(rest.slice(i, i + 100).map((p) => open(`ws://127.0.0.1:${BROKER_PORT}`, p, true)))));
    await new Promise((r) => setTimeout(r, 3_000));
    const after = await settledMemory(`http://127.0.0.1:${BROKER_PORT}`, INSPECT_PORT);
    const added = sockets.length - warm.length;
    const perConnection = (after.rss - before.rss) / added;
    console.log(`idle connections: ${sockets.length}; broker RSS ${(before.rss / 2 ** 20).toFixed(0)} MB -> ${(after.rss / 2 ** 20).toFixed(0)} MB, heap ${(before.heap / 2 ** 20).toFixed(0)} MB -> ${(after.heap / 2 ** 20).toFixed(0)} MB`);
    console.log(`memory per idle connection: ${(perConnection / 1024).toFixed(1)} KB resident, ${((after.heap - before.heap) / added / 1024).toFixed(1)} KB heap (goal <= 50 KB: ${perConnection <= 50 * 1024 ? "met" : "MISSED"})`);
    for (const s of sockets) s.ws.terminate();
    await stop(fresh);
  }
} finally {
  await db.$disconnect();
  if (ready.embedded?.owned) await ready.embedded.stop();
}
