// Helpers of the broker's integration tests: an in-process broker on a free port, and peers.
import nacl from "tweetnacl";
import WebSocket from "ws";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { parseConfig } from "@/server/core/config";
import type { Db } from "@/server/core/db";
import { toBase64Url } from "@/server/core/encoding";
import { createLogger } from "@/server/core/logger";
import { joinMesh } from "@/server/services/join/join-mesh";
import { freePort, uid } from "@/test/helpers";
import { makeMesh, makeUser } from "@/test/mesh-fixtures";
import { ZBrokerConfig } from "./config";
import type { TServerFrame } from "./protocol/frames";
import { signWsAuth, WS_AUTH_HEADER } from "./protocol/ws-auth";
import { createBrokerServer, type BrokerServer } from "./server";

export interface TestBroker extends BrokerServer {
  port: number;
  http: string;
  ws: string;
}

/** Starts a broker in this process on a free port, with its own node id; settings override the defaults. */
export async function startBroker(db: Db, env: Record<string, string> = {}): Promise<TestBroker> {
  const port = await freePort();
  const config = parseConfig(ZBrokerConfig, {
    DATABASE_URL: process.env.DATABASE_URL,
    BROKER_PORT: String(port),
    BROKER_HOST: "127.0.0.1",
    BROKER_NODE_ID: uid("node"),
    ...env,
  });
  const broker = createBrokerServer(config, { db, log: createLogger("broker-test", "silent"), version: "test", gitSha: "test" });
  await broker.start();
  await new Promise<void>((resolve) => broker.server.listen(port, "127.0.0.1", resolve));
  return Object.assign(broker, { port, http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}` });
}

export const as = (db: Db, user: SessionUser) => createCaller(createContext({ user, db }));

/** A mesh with an owner and a fresh invite token. */
export async function meshWithInvite(db: Db, opts: { maxUses?: number } = {}) {
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

/** A peer with its own key pair, joined to the invite's mesh through the join service. */
export async function joinedPeer(db: Db, token: string, name = "peer"): Promise<TestPeer> {
  const keys = nacl.sign.keyPair();
  const joined = await joinMesh(db, { token, peerPubkey: toBase64Url(keys.publicKey), displayName: name });
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
  const ws = new WebSocket(`${broker.ws}/ws?mesh=${meshId}&member=${memberId}`, { headers: { [WS_AUTH_HEADER]: auth }, ...opts.wsOptions });
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
