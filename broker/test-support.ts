// Helpers of the broker's integration tests: an in-process broker on a free port, and peers.
import net from "node:net";
import nacl from "tweetnacl";
import WebSocket from "ws";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { parseConfig } from "@/server/core/config";
import type { Db } from "@/server/core/db";
import { toBase64Url } from "@/server/core/encoding";
import { createLogger } from "@/server/core/logger";
import { joinMesh } from "@/server/services/join/join-mesh";
import { ZJoinInput } from "@/server/services/join/join-mesh.schema";
import { freePort, spawnTsx, uid, waitForHttp, type Spawned } from "@/test/helpers";
import { BROKER_NODE_FLAGS } from "./node-flags";
import { makeMesh, makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { ZBrokerConfig } from "./config";
import type { TServerFrame, TTargetSpec } from "./protocol/frames";
import { signHookAuth, signWsAuth, WS_AUTH_HEADER } from "./protocol/ws-auth";
import { createBrokerServer, type BrokerServer } from "./server";

export interface TestBroker extends BrokerServer {
  port: number;
  http: string;
  ws: string;
}

export type BrokerProcess = Spawned & { port: number; http: string; ws: string };

/**
 * A broker as its own process (`broker/index.ts` with its Node flags, as the start command runs it) on a free port, with its
 * own node id: for tests of memory, crashes and several nodes. Settings override the defaults.
 */
export async function brokerProcess(tag: string, env: Record<string, string | undefined> = {}): Promise<BrokerProcess> {
  const port = await freePort();
  const proc = spawnTsx(
    "broker/index.ts",
    [],
    {
      DATABASE_URL: process.env.DATABASE_URL,
      BROKER_PORT: String(port),
      BROKER_HOST: "127.0.0.1",
      BROKER_NODE_ID: uid(tag),
      LOG_LEVEL: "warn",
      ...env,
    },
    BROKER_NODE_FLAGS,
  );
  await waitForHttp(`http://127.0.0.1:${port}/health`, 200, 60_000);
  return { ...proc, port, http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}` };
}

/**
 * Starts a broker in this process on a free port (or `port`), with its own node id; settings override the
 * defaults (`now` is the rate limiters' clock).
 */
export async function startBroker(
  db: Db,
  env: Record<string, string> = {},
  opts: { now?: () => number; port?: number } = {},
): Promise<TestBroker> {
  // A given port: the same node started again where its clients dial (a restart).
  const port = opts.port ?? (await freePort());
  const config = parseConfig(ZBrokerConfig, {
    DATABASE_URL: process.env.DATABASE_URL,
    DB_PING_INTERVAL_MS: "200",
    DB_BACKOFF_INITIAL_MS: "50",
    DB_BACKOFF_MAX_MS: "400",
    BROKER_PORT: String(port),
    BROKER_HOST: "127.0.0.1",
    BROKER_NODE_ID: uid("node"),
    ...env,
  });
  const broker = createBrokerServer(config, {
    db,
    log: createLogger("broker-test", "silent"),
    version: "test",
    gitSha: "test",
    ...(opts.now ? { now: opts.now } : {}),
  });
  await broker.start();
  await new Promise<void>((resolve) => broker.server.listen(port, "127.0.0.1", resolve));
  return Object.assign(broker, { port, http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}` });
}

export const as = (db: Db, user: SessionUser) => createCaller(createContext({ user, db }));

/** A mesh with an owner and a fresh invite token. */
export async function meshWithInvite(db: Db, opts: { maxUses?: number; role?: "admin" | "member" | "observer" } = {}) {
  const owner = await makeUser(db);
  const mesh = await makeMesh(db, owner);
  const invite = await as(db, owner).my.createInvite({ meshId: mesh.id, ...opts });
  return { owner, mesh, invite };
}

export interface TestPeer {
  meshId: string;
  memberId: string;
  keys: nacl.SignKeyPair;
}

/** POST /hook/set-status as the peer (signed with its key, or another), with the body's fields overridden. */
export function hookRequest(
  httpBase: string,
  peer: TestPeer,
  fields: Record<string, unknown> = {},
  opts: { secretKey?: Uint8Array; signBody?: string } = {},
) {
  const body = JSON.stringify({
    meshId: peer.meshId,
    memberId: peer.memberId,
    pid: 4242,
    cwd: "/home/a/project",
    status: "working",
    ...fields,
  });
  const auth = signHookAuth({
    meshId: peer.meshId,
    memberId: peer.memberId,
    secretKey: opts.secretKey ?? peer.keys.secretKey,
    body: opts.signBody ?? body,
  });
  return fetch(`${httpBase}/hook/set-status`, {
    method: "POST",
    headers: { "content-type": "application/json", [WS_AUTH_HEADER]: auth },
    body,
  });
}

/** A peer with its own key pair, joined to the invite's mesh through the join service. */
export async function joinedPeer(db: Db, token: string, name = "peer"): Promise<TestPeer> {
  const keys = nacl.sign.keyPair();
  const joined = await joinMesh(
    visitorCtx(db),
    ZJoinInput.parse({ token, peerPubkey: toBase64Url(keys.publicKey), displayName: name }),
  );
  if (!joined.ok) throw new Error(`join failed: ${joined.reason}`);
  return { meshId: joined.meshId, memberId: joined.memberId, keys };
}

export type ConnectResult =
  | { ok: true; ws: WebSocket; welcome: TServerFrame; frames: TServerFrame[] }
  | { ok: false; status: number; body: string };

/** Opens /ws as the peer (or with the given overrides) and waits for the welcome frame or the refusal. */
export function connect(
  broker: TestBroker,
  peer: TestPeer,
  opts: { meshId?: string; memberId?: string; auth?: string; wsOptions?: WebSocket.ClientOptions } = {},
): Promise<ConnectResult> {
  const meshId = opts.meshId ?? peer.meshId;
  const memberId = opts.memberId ?? peer.memberId;
  const auth = opts.auth ?? signWsAuth({ meshId, memberId, secretKey: peer.keys.secretKey });
  const ws = new WebSocket(`${broker.ws}/ws?mesh=${meshId}&member=${memberId}`, {
    headers: { [WS_AUTH_HEADER]: auth },
    ...opts.wsOptions,
  });
  const frames: TServerFrame[] = [];
  return new Promise((resolve, reject) => {
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as TServerFrame;
      frames.push(frame);
      if (frame.type === "welcome") resolve({ ok: true, ws, welcome: frame, frames });
    });
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ ok: false, status: res.statusCode ?? 0, body }));
    });
    ws.on("close", (code, reason) => reject(new Error(`closed before welcome: ${code} ${String(reason)}`)));
    ws.on("error", () => {});
  });
}

/** Resolves with the close code and reason of a socket. */
export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve({ code: -1, reason: "already closed" });
  return new Promise((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: String(reason) })));
}

/** The next frame a socket receives. */
export function nextFrame(ws: WebSocket): Promise<TServerFrame> {
  return new Promise((resolve) => ws.once("message", (data) => resolve(JSON.parse(String(data)) as TServerFrame)));
}

/** Polls until check() is true (database effects of socket events land asynchronously). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The number a line of a broker's /metrics text gives in its first group (0 when it has none). */
export async function metric(broker: Pick<TestBroker, "http">, line: RegExp): Promise<number> {
  const text = await (await fetch(`${broker.http}/metrics`)).text();
  return Number(text.match(line)?.[1] ?? 0);
}

/** A connected peer that records every frame and can wait for the ones it expects. */
export class TestClient {
  readonly frames: TServerFrame[] = [];
  private waiters: { match: (f: TServerFrame) => boolean; resolve: (f: TServerFrame) => void }[] = [];
  private seq = 0;
  /** Send ids are unique per sender (the broker treats a repeated id as a resend): one run of ids per client. */
  private readonly run = Math.random().toString(36).slice(2, 10);

  private constructor(
    readonly ws: WebSocket,
    readonly peer: TestPeer,
  ) {
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as TServerFrame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => (w.match(frame) ? (w.resolve(frame), false) : true));
    });
  }

  /** Connects and waits for the welcome frame. */
  static async open(broker: Pick<TestBroker, "ws">, peer: TestPeer): Promise<TestClient> {
    const auth = signWsAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey });
    const ws = new WebSocket(`${broker.ws}/ws?mesh=${peer.meshId}&member=${peer.memberId}`, {
      headers: { [WS_AUTH_HEADER]: auth },
    });
    ws.on("error", () => {});
    const client = new TestClient(ws, peer);
    await client.next((f) => f.type === "welcome", 10_000);
    return client;
  }

  /** The first recorded or future frame that matches. */
  next<T extends TServerFrame>(match: (f: TServerFrame) => f is T, timeoutMs?: number): Promise<T>;
  next(match: (f: TServerFrame) => boolean, timeoutMs?: number): Promise<TServerFrame>;
  next(match: (f: TServerFrame) => boolean, timeoutMs = 5_000): Promise<TServerFrame> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("expected frame did not come")), timeoutMs);
      this.waiters.push({ match, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  }

  /** Messages received so far. */
  messages(): Extract<TServerFrame, { type: "message" }>[] {
    return this.frames.filter((f): f is Extract<TServerFrame, { type: "message" }> => f.type === "message");
  }

  /** Waits until `count` message frames have arrived. */
  async waitMessages(count: number, timeoutMs = 10_000): Promise<Extract<TServerFrame, { type: "message" }>[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.messages().length < count) {
      if (Date.now() > deadline) throw new Error(`got ${this.messages().length} of ${count} messages`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.messages();
  }

  raw(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }

  /** Sends a message and waits for its `sent` (or error) answer. */
  async send(to: TTargetSpec, ciphertext: string, priority?: string): Promise<TServerFrame> {
    const id = `m${++this.seq}.${this.run}`;
    this.raw({ v: 1, type: "send", id, to, ciphertext, ...(priority ? { priority } : {}) });
    return this.next((f) => (f.type === "sent" || f.type === "error") && f.id === id);
  }

  ack(messageIds: string[]): void {
    this.raw({ v: 1, type: "ack", messageIds });
  }

  close(): Promise<{ code: number; reason: string }> {
    const done = closed(this.ws);
    this.ws.close();
    return done;
  }
}

/** Base64url of random bytes standing in for a ciphertext. */
export const fakeCiphertext = (bytes = 64) => toBase64Url(nacl.randomBytes(bytes));

/**
 * A TCP proxy in front of PostgreSQL, so a test can make the database unreachable for one broker
 * (cut) and reachable again (restore) without stopping the server other tests use.
 */
export async function dbProxy(
  databaseUrl: string,
): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("error", () => {});
          s.on("close", () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  const stop = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  };
  await listen();
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return { url: url.toString(), cut: stop, restore: listen, close: stop };
}

/**
 * A connection that takes its welcome, then stops reading its socket (TCP flow control pushes back);
 * `ws.resume()` reads on, and every frame it reads is kept in `frames`.
 */
export async function stalledConnection(
  broker: { ws: string },
  peer: TestPeer,
): Promise<{ ws: WebSocket; frames: TServerFrame[] }> {
  const auth = signWsAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey });
  const ws = new WebSocket(`${broker.ws}/ws?mesh=${peer.meshId}&member=${peer.memberId}`, {
    headers: { [WS_AUTH_HEADER]: auth },
  });
  ws.on("error", () => {});
  const frames: TServerFrame[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as TServerFrame;
      frames.push(frame);
      if (frame.type === "welcome") {
        ws.pause();
        resolve();
      }
    });
    ws.once("close", (code) => reject(new Error(`closed before welcome: ${code}`)));
  });
  return { ws, frames };
}
