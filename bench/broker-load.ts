// The broker benchmarks' load generator (bench/broker.ts, bench/scaling.ts): peers with keys inserted
// directly, WebSocket clients that retry refusals, a saturating and an evenly paced sender, and the
// latency of delivery (send → the recipient has it) and of storage (send → the sender's `sent`).
import nacl from "tweetnacl";
import WebSocket from "ws";
import { signWsAuth, WS_AUTH_HEADER } from "../broker/protocol/ws-auth";
import { AckBatcher } from "../broker/client/delivery";
import { corkForTick } from "../broker/ws/registry";
import type { Db } from "../src/server/core/db";
import { toBase64Url } from "../src/server/core/encoding";
import { createMesh } from "../src/server/services/meshes/create-mesh";
import { serviceContext } from "../src/server/services/context";
import { VISITOR } from "../src/server/services/actor";
import { ZCreateMeshInput } from "../src/server/services/meshes/create-mesh.schema";
import { registerUser } from "../src/server/services/users/register-user";
import { percentile } from "./lib";

/** Unanswered sends per peer in the saturating run: 8 keeps the rate of 16 with half the queueing (docs/performance.md). */
export const WINDOW = Number(process.env.BENCH_WINDOW ?? 8);
/** Ciphertext bytes per message. */
export const PAYLOAD = 1024;

export interface Peer {
  meshId: string;
  memberId: string;
  keys: nacl.SignKeyPair;
}

/** Meshes with members that have peer keys, inserted directly (joins are measured elsewhere). */
export async function makePeers(db: Db, meshes: number, perMesh: number, tag: string): Promise<Peer[][]> {
  const user = await registerUser(serviceContext(VISITOR, { db }), {
    name: "Bench",
    email: `bench-${tag}-${Date.now()}@example.test`,
    password: "bench-password-long",
  });
  const out: Peer[][] = [];
  for (let m = 0; m < meshes; m++) {
    const mesh = await createMesh(
      serviceContext({ kind: "user", userId: user.id, isAdmin: false }, { db }),
      ZCreateMeshInput.parse({ name: `Bench ${m}`, slug: `bench-${tag}-${m}-${Date.now().toString(36)}` }),
    );
    const keys = Array.from({ length: perMesh }, () => nacl.sign.keyPair());
    const rows = await db.member.createManyAndReturn({
      data: keys.map((k, i) => ({ meshId: mesh.id, peerPubkey: toBase64Url(k.publicKey), displayName: `peer ${i}` })),
      select: { id: true, peerPubkey: true },
    });
    out.push(rows.map((r, i) => ({ meshId: mesh.id, memberId: r.id, keys: keys[i]! })));
  }
  return out;
}

export interface Client {
  peer: Peer;
  ws: WebSocket;
  outstanding: number;
  onReceive?: (latencyMs: number) => void;
  onStored?: (latencyMs: number) => void;
  /** An answer (`sent` or `error`) freed a place in the window. */
  onAnswer?: () => void;
  sentAt: Map<string, number>;
  /** Acks as the mesh client sends them: the ids received within 20 ms of the first, in one frame. */
  acks: AckBatcher;
}

/** Connection attempts refused with 503 or 429 and tried again, in this process so far. */
export const refusals = { waitedOut: 0 };

/** Opens a connection, waiting out retriable refusals (503 or 429, after Retry-After) up to 30 times. */
export async function open(base: string, peer: Peer, withAuth: boolean): Promise<Client> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await openOnce(base, peer, withAuth);
    } catch (error) {
      const retryAfter = (error as { retryAfterMs?: number }).retryAfterMs;
      if (retryAfter === undefined || attempt >= 30) throw error;
      refusals.waitedOut++;
      await new Promise((r) => setTimeout(r, retryAfter));
    }
  }
}

const MESSAGE_HEAD_BYTES = Buffer.from('{"v":1,"type":"message",');
const MESSAGE_ID_KEY = '"messageId":"';
const CIPHERTEXT_KEY = '"ciphertext":"';

async function openOnce(base: string, peer: Peer, withAuth: boolean): Promise<Client> {
  const headers = withAuth
    ? { [WS_AUTH_HEADER]: signWsAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey }) }
    : {};
  const ws = new WebSocket(`${base}/ws?mesh=${peer.meshId}&member=${peer.memberId}`, {
    headers,
    perMessageDeflate: false,
  });
  const acks = new AckBatcher((messageIds) => {
    corkForTick(ws);
    ws.send(JSON.stringify({ v: 1, type: "ack", messageIds }));
  });
  const client: Client = { peer, ws, outstanding: 0, acks, sentAt: new Map() };
  await new Promise<void>((resolve, reject) => {
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => {
      const seconds = Number(res.headers["retry-after"] ?? 1);
      const retriable = res.statusCode === 503 || res.statusCode === 429;
      res.resume();
      ws.terminate();
      reject(
        Object.assign(
          new Error(`HTTP ${res.statusCode}`),
          retriable ? { retryAfterMs: Math.max(1, seconds) * 1000 * (1 + Math.random() / 2) } : {},
        ),
      );
    });
    let welcomed = false;
    ws.on("message", (raw) => {
      const data = raw as Buffer;
      // A message frame (the broker writes its keys in a fixed order) is read in its bytes, without
      // decoding or parsing its kilobyte of ciphertext: the generator shares the cores with what it measures.
      if (
        welcomed &&
        data.length > MESSAGE_HEAD_BYTES.length &&
        data.compare(MESSAGE_HEAD_BYTES, 0, MESSAGE_HEAD_BYTES.length, 0, MESSAGE_HEAD_BYTES.length) === 0
      ) {
        const id = data.indexOf(MESSAGE_ID_KEY);
        const body = data.indexOf(CIPHERTEXT_KEY, id);
        if (id > 0 && body > 0) {
          const at = body + CIPHERTEXT_KEY.length;
          const sentAt = Buffer.from(data.toString("latin1", at, at + 12), "base64url").readDoubleLE(0);
          client.onReceive?.(performance.now() - sentAt);
          client.acks.add(data.toString("latin1", id + MESSAGE_ID_KEY.length, id + MESSAGE_ID_KEY.length + 36));
          return;
        }
      }
      const text = String(data);
      if (!welcomed) {
        if (text.includes('"type":"welcome"')) {
          welcomed = true;
          resolve();
        }
        return;
      }
      const frame = JSON.parse(text) as { type: string; id?: string; messageId?: string; ciphertext?: string };
      if (frame.type === "sent" || frame.type === "error") {
        client.outstanding -= 1;
        client.onAnswer?.();
        const at = frame.id ? client.sentAt.get(frame.id) : undefined;
        if (at !== undefined && frame.id) {
          client.sentAt.delete(frame.id);
          if (frame.type === "sent") client.onStored?.(performance.now() - at);
        }
      } else if (frame.type === "message" && frame.ciphertext) {
        const sentAt = Buffer.from(frame.ciphertext.slice(0, 12), "base64url").readDoubleLE(0);
        client.onReceive?.(performance.now() - sentAt);
        if (frame.messageId) client.acks.add(frame.messageId);
      }
    });
  });
  return client;
}

// A message's ciphertext: random bytes whose first 8 are its send time (the recipient reads its latency
// from them). Only those change from message to message: the first 9 bytes are 12 base64url characters
// of their own, and the rest of the text is encoded once (the generator shares the cores it measures).
const filler = nacl.randomBytes(PAYLOAD);
const FILLER_TAIL = Buffer.from(filler.subarray(9)).toString("base64url");
const head = Buffer.from(filler.subarray(0, 9));
function payload(): string {
  head.writeDoubleLE(performance.now(), 0);
  return head.toString("base64url") + FILLER_TAIL;
}

let seq = 0;
function send(from: Client, to: Client): void {
  from.outstanding += 1;
  const id = `b${++seq}`;
  from.sentAt.set(id, performance.now());
  // A client's sends of one tick (its refills after a batch's answers arrive together) leave in one
  // write, as the broker's frames do: one system call a frame was a quarter of the generator's CPU.
  corkForTick(from.ws);
  // The frame JSON.stringify would write (ids and base64url need no escaping), without scanning the payload.
  from.ws.send(
    `{"v":1,"type":"send","id":"${id}","to":{"kind":"peer","memberId":"${to.peer.memberId}"},"ciphertext":"${payload()}"}`,
  );
}

/**
 * How long a run goes before it is measured: a second, and at a fixed rate as long as WARM_UP_MESSAGES
 * take (1 to 10 s). The fixed-rate run meets a fresh broker process, and after a second at
 * 1,000/s V8 was still optimising its code: the optimising compiler took 10.8 % of the broker's
 * samples over the measured seconds after a 1 s warm-up, 5.3 % after 3 s (docs/performance.md, "Acks
 * as clients send them"); a saturating run passes 5,000 messages in its first half second.
 */
export const WARM_UP_MESSAGES = 5_000;
export function warmUpMs(mode: "max" | { rate: number }): number {
  return mode === "max" ? 1_000 : Math.min(10_000, Math.max(1_000, (WARM_UP_MESSAGES / mode.rate) * 1_000));
}

export interface RunResult {
  perSecond: number;
  p50: number;
  p99: number;
  storedP50: number;
  storedP99: number;
}

/**
 * Mode "max": keep WINDOW sends open per peer. Mode "rate": a fixed total rate. With several `bases`
 * (broker nodes) the peers of each mesh are dealt to them in turn, so every message crosses nodes.
 */
export async function run(
  bases: string[],
  groups: Peer[][],
  withAuth: boolean,
  mode: "max" | { rate: number },
  seconds: number,
  window?: { start(): void | Promise<void>; end(): void | Promise<void> },
): Promise<RunResult> {
  const clients = await Promise.all(
    groups.flatMap((g) => g.map((p, i) => open(bases[i % bases.length]!, p, withAuth))),
  );
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
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  if (mode === "max") {
    // Each answer refills its sender's window at once: no polling loop competing for the cores.
    for (const c of clients) {
      const refill = () => {
        while (running && c.outstanding < WINDOW) send(c, next.get(c)!);
      };
      c.onAnswer = refill;
      refill();
    }
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
  await new Promise((r) => setTimeout(r, warmUpMs(mode)));
  await window?.start();
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1_000));
  const elapsed = (performance.now() - t0) / 1_000;
  measuring = false;
  await window?.end();
  running = false;
  clearInterval(timer);
  await new Promise((r) => setTimeout(r, 500));
  for (const c of clients) {
    c.acks.drop();
    c.ws.terminate();
  }
  return {
    perSecond: received / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    storedP50: percentile(stored, 50),
    storedP99: percentile(stored, 99),
  };
}

/**
 * Empties the message tables of the bench database (its own database, made by benchDatabase), so each
 * run starts from the same state rather than from the rows and dead tuples of the runs before it.
 */
export async function resetMessageTables(db: Db): Promise<void> {
  // No ANALYZE of the empty tables: statistics saying "no rows" would steer the planner to sequential
  // scans while the run fills them (as after a fresh install, until autovacuum analyses them).
  await db.$executeRawUnsafe("TRUNCATE message_recipients, message_envelopes, message_deliveries, audit_events");
}

/**
 * Removes what makePeers made in this benchmark database (its meshes with their members and presences,
 * then its users), after the message tables: each run starts from the same database, not on the 5,000
 * members and presences every run before it left (2026-11-28: 52,000 of each after a few days' runs).
 */
export async function removePeers(db: Db): Promise<void> {
  // Called from `finally`: a failure here is reported, never in place of the error that got there.
  try {
    await resetMessageTables(db);
    await db.$executeRawUnsafe("DELETE FROM meshes WHERE slug LIKE 'bench-%'");
    await db.$executeRawUnsafe("DELETE FROM users WHERE email LIKE 'bench-%@example.test'");
  } catch (error) {
    console.error("could not remove the benchmark's meshes and users:", error);
  }
}

/** The environment the app's services read when the benchmark makes meshes and members in-process. */
export function setBenchEnv(databaseUrl: string, brokerPort: number): void {
  process.env.DATABASE_URL = databaseUrl;
  process.env.AUTH_SECRET ??= "bench-auth-secret-0123456789abcdef0123456789";
  process.env.SECRETS_KEYS ??= `kbench:${Buffer.alloc(32, 9).toString("base64")}`;
  process.env.PUBLIC_BROKER_URL ??= `ws://127.0.0.1:${brokerPort}`;
}

/**
 * A broker process's environment in the benchmarks: loopback, no connection cap, connect limit or send
 * limit in the way (a connection's 100 sends a second would hold 100 peers to 10,000 messages a second:
 * the measure would be the limit, not the broker).
 */
export function benchBrokerEnv(databaseUrl: string, port: number, nodeId: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    BROKER_PORT: String(port),
    BROKER_HOST: "127.0.0.1",
    BROKER_NODE_ID: nodeId,
    MAX_CONNECTIONS_PER_MESH: "100000",
    WS_AUTH_RATE_PER_MINUTE: "1000000",
    WS_SEND_RATE_PER_SECOND: "1000000",
    BROKER_DB_POOL_MAX: "8",
  };
}
