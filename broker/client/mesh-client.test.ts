// The client against a scripted broker (a plain `ws` server on a free port): refusals, Retry-After,
// the liveness watchdog, error frames and what gets acked. The real broker is in the integration tests.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import nacl from "tweetnacl";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { toBase64Url, utf8 } from "../../src/server/core/encoding";
import type { TClientFrame } from "../protocol/frames";
import type { TMeshConfig } from "./config-store";
import { MeshClient } from "./mesh-client";
import { deriveMeshKey, encodeTextPlaintext, generatePeerSecrets, sealForMesh } from "./mesh-crypto";

type Answer = (req: http.IncomingMessage) => { status: number; headers?: Record<string, string> } | "upgrade";

interface Fake {
  port: number;
  sockets: WebSocket[];
  received: TClientFrame[];
  connections: number;
  close: () => Promise<void>;
}

const fakes: Fake[] = [];
const clients: MeshClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

/** A broker stand-in: `answer` decides each upgrade; `onFrame` scripts replies. */
async function fakeBroker(
  answer: Answer,
  onFrame: (ws: WebSocket, frame: TClientFrame) => void = () => {},
  heartbeatMs = 30_000,
): Promise<Fake> {
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer();
  const fake: Fake = { port: 0, sockets: [], received: [], connections: 0, close: async () => {} };
  server.on("upgrade", (req, socket: net.Socket, head) => {
    const a = answer(req);
    if (a !== "upgrade") {
      const headers = Object.entries(a.headers ?? {})
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      socket.end(
        `HTTP/1.1 ${a.status} No\r\ncontent-type: application/json\r\n${headers}connection: close\r\n\r\n{"error":{"code":"X","message":"no"}}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      fake.connections += 1;
      fake.sockets.push(ws);
      ws.on("message", (data) => {
        const frame = JSON.parse(String(data)) as TClientFrame;
        fake.received.push(frame);
        onFrame(ws, frame);
      });
      ws.send(
        JSON.stringify({
          v: 1,
          type: "welcome",
          connectionId: randomUUID(),
          meshId: config.meshId,
          memberId: config.memberId,
          maxMessageBytes: 65536,
          heartbeatMs,
          queued: 0,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as net.AddressInfo).port;
  fake.close = () =>
    new Promise((resolve) => {
      for (const ws of fake.sockets) ws.terminate();
      wss.close();
      server.close(() => resolve());
    });
  fakes.push(fake);
  return fake;
}

const secrets = generatePeerSecrets();
const rootKey = nacl.randomBytes(32);
const config: TMeshConfig = {
  version: 1,
  meshId: randomUUID(),
  meshSlug: "team",
  memberId: randomUUID(),
  role: "member",
  displayName: "Me",
  brokerUrl: "ws://127.0.0.1:1",
  joinedAt: new Date().toISOString(),
  meshRootKey: toBase64Url(rootKey),
  signSeed: toBase64Url(secrets.signSeed),
  boxSecretKey: toBase64Url(secrets.boxSecretKey),
};
const clientOf = (fake: Fake, opts: ConstructorParameters<typeof MeshClient>[1] = {}) => {
  const c = new MeshClient(
    { ...config, brokerUrl: `ws://127.0.0.1:${fake.port}` },
    { backoff: { initialMs: 20, maxMs: 40 }, ...opts },
  );
  clients.push(c);
  return c;
};
const messageFrame = (ciphertext: string) => ({
  v: 1,
  type: "message",
  messageId: randomUUID(),
  seq: "1",
  from: randomUUID(),
  to: { kind: "mesh" },
  priority: "normal",
  createdAt: new Date().toISOString(),
  ciphertext,
  attempt: 1,
});

describe("MeshClient against a scripted broker", () => {
  it("holds one wait for the connection however many sends queue while it is down (no listener per send)", async () => {
    // Refused with 503 and Retry-After: the client waits, and every send made meanwhile queues.
    const fake = await fakeBroker(() => ({ status: 503, headers: { "retry-after": "30" } }));
    const client = clientOf(fake);
    const sends = Array.from({ length: 50 }, (_, i) => client.send(`queued ${i}`).catch((e: unknown) => e));
    await new Promise((r) => setTimeout(r, 100));
    expect(client.listenerCount("connected")).toBe(1);
    expect(client.listenerCount("fatal")).toBe(1);
    await client.close();
    expect((await Promise.all(sends)).every((e) => (e as { code?: string }).code === "CLOSED")).toBe(true);
  });

  it("signs its upgrade, and stops for good on a 401 (no retry loop)", async () => {
    const seen: http.IncomingMessage[] = [];
    const fake = await fakeBroker((req) => (seen.push(req), { status: 401 }));
    const error = await clientOf(fake)
      .connect()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "MeshClientError", code: "X" });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe(`/ws?mesh=${config.meshId}&member=${config.memberId}`);
    expect(seen[0]?.headers["x-mesh-auth"]).toMatch(/^v1\.\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{86}$/);
  });

  it("waits Retry-After after a 429 or a 503, plus a random part of up to a second, then connects", async () => {
    let calls = 0;
    const answers = [
      { status: 429, headers: { "retry-after": "1" } },
      { status: 503, headers: { "retry-after": "1" } },
    ];
    const fake = await fakeBroker(() => answers[calls++] ?? "upgrade");
    const randoms = [0, 1];
    const client = clientOf(fake, { random: () => randoms.shift() ?? 0.5 });
    const waits: number[] = [];
    client.on("reconnecting", (r) => waits.push(r.delayMs));
    await client.connect();
    expect(waits).toEqual([1000, 2000]);
    expect(calls).toBe(3);
  });

  it("drops a connection that went silent for 2.5 heartbeats and dials again", async () => {
    const fake = await fakeBroker(
      () => "upgrade",
      () => {},
      40,
    );
    const client = clientOf(fake);
    await client.connect();
    const ends: string[] = [];
    client.on("disconnected", (e) => ends.push(e.kind));
    await new Promise((resolve) => client.once("connected", resolve));
    expect(fake.connections).toBeGreaterThanOrEqual(2);
    expect(ends[0]).toBe("closed");
  });

  it("repeats a send refused with SERVICE_UNAVAILABLE and fails one refused with NOT_FOUND", async () => {
    let unavailable = 1;
    const gone = {
      memberId: randomUUID(),
      displayName: "Gone",
      role: "member",
      boxPubkey: toBase64Url(nacl.box.keyPair().publicKey),
      online: false,
      status: null,
      statusText: null,
    };
    const fake = await fakeBroker(
      () => "upgrade",
      (ws, f) => {
        if (f.type === "peers") ws.send(JSON.stringify({ v: 1, type: "peers", id: f.id, peers: [gone] }));
        if (f.type !== "send") return;
        if (f.to.kind === "peer")
          ws.send(JSON.stringify({ v: 1, type: "error", code: "NOT_FOUND", message: "no such member", id: f.id }));
        else if (unavailable-- > 0)
          ws.send(JSON.stringify({ v: 1, type: "error", code: "SERVICE_UNAVAILABLE", message: "later", id: f.id }));
        else
          ws.send(
            JSON.stringify({
              v: 1,
              type: "sent",
              id: f.id,
              messageId: randomUUID(),
              createdAt: new Date().toISOString(),
              recipients: 2,
            }),
          );
      },
    );
    const client = clientOf(fake);
    await client.connect();
    expect(await client.send("again please")).toMatchObject({ recipients: 2 });
    const sends = fake.received.filter((f) => f.type === "send");
    expect(sends).toHaveLength(2);
    expect(sends[0]).toEqual(sends[1]);
    // The broker's NOT_FOUND (a member revoked since `peers`) fails that send; the connection stays.
    await expect(client.send("hi", { to: [gone.memberId] })).rejects.toMatchObject({
      name: "MeshClientError",
      code: "NOT_FOUND",
      message: "no such member",
    });
    // An id no `peers` answer knows is refused before anything is sent.
    await expect(client.send("hi", { to: [randomUUID()] })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining("no live member"),
    });
    expect(fake.received.filter((f) => f.type === "send")).toHaveLength(3);
    expect(client.connected).toBe(true);
  });

  it("acks what it reads, what it cannot read and kinds it does not know; shows only text", async () => {
    const meshKey = deriveMeshKey(rootKey);
    const frames = [
      messageFrame(sealForMesh(encodeTextPlaintext("readable"), meshKey)),
      messageFrame(sealForMesh(utf8('{"kind":"file","name":"x"}'), meshKey)),
      messageFrame(sealForMesh(encodeTextPlaintext("other mesh"), deriveMeshKey(nacl.randomBytes(32)))),
    ];
    const fake = await fakeBroker(
      () => "upgrade",
      () => {},
    );
    const client = clientOf(fake, { ackDelayMs: 5 });
    const texts: string[] = [];
    const unreadable: string[] = [];
    client.on("message", (m) => texts.push(m.text));
    client.on("undecryptable", (u) => unreadable.push(u.reason));
    await client.connect();
    for (const f of [...frames, frames[0]]) fake.sockets[0]?.send(JSON.stringify(f));
    await expect
      .poll(
        () =>
          fake.received.filter((f) => f.type === "ack").flatMap((f) => (f.type === "ack" ? f.messageIds : [])).length,
      )
      .toBe(4);
    const acked = fake.received.flatMap((f) => (f.type === "ack" ? f.messageIds : []));
    expect(new Set(acked)).toEqual(new Set(frames.map((f) => f.messageId)));
    expect(texts).toEqual(["readable"]);
    expect(unreadable).toEqual(["tampered"]);
  });

  it("leaves messages unacked in a session that does not receive", async () => {
    const fake = await fakeBroker(
      () => "upgrade",
      (ws, f) => f.type === "peers" && ws.send(JSON.stringify({ v: 1, type: "peers", id: f.id, peers: [] })),
    );
    const client = clientOf(fake, { receive: false, ackDelayMs: 1 });
    await client.connect();
    fake.sockets[0]?.send(
      JSON.stringify(messageFrame(sealForMesh(encodeTextPlaintext("keep me"), deriveMeshKey(rootKey)))),
    );
    // The answer to `peers` comes after the message, so the message has been seen by then.
    expect(await client.peers()).toEqual([]);
    await client.close();
    expect(fake.received.filter((f) => f.type === "ack")).toEqual([]);
  });
});
