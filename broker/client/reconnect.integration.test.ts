// Reconnects after a node restart (issue 42, point 3): the clients of a node that stops and comes back
// on the same port are all connected again within 5 s of its /ready, and a client refused with 503 and
// Retry-After waits what it was told, not its own back-off (docs/protocol.md, "Reconnecting").
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb, uid } from "@/test/helpers";
import { startBroker, type TestBroker } from "../test-support";
import { ConfigStore, type TMeshConfig } from "./config-store";
import { joinWithLink } from "./join";
import { MeshClient } from "./mesh-client";
import { meshForBroker } from "./test-mesh";

const db = testDb();
const PEERS = 60;
/** How long the node stays down: long enough for the old back-off (500 ms doubling to 30 s) to grow past 4 s. */
const DOWN_MS = 8_000;
const env = {
  BROKER_NODE_ID: uid("restarted"),
  JOIN_RATE_PER_MINUTE: "100000",
  WS_AUTH_RATE_PER_MINUTE: "100000",
  MAX_CONNECTIONS_PER_MESH: "1000",
  MAX_CONNECTIONS_PER_INVITE: "1000",
};
const homes: string[] = [];
const clients: MeshClient[] = [];
let broker: TestBroker | undefined;
let configs: TMeshConfig[] = [];

beforeAll(async () => {
  broker = await startBroker(db, env);
  const { invite } = await meshForBroker(db, broker.ws, { maxUses: PEERS + 5 });
  configs = [];
  for (let i = 0; i < PEERS; i += 10)
    configs.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, PEERS - i) }, async (_, j) => {
          const home = mkdtempSync(path.join(os.tmpdir(), "mesh-reconnect-"));
          homes.push(home);
          const store = new ConfigStore(path.join(home, "cfg"));
          return (await joinWithLink(invite.joinUrl, { displayName: `peer ${i + j}`, store })).config;
        }),
      )),
    );
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await broker?.close();
  await db.$disconnect();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

async function readyAt(http: string): Promise<number> {
  for (;;) {
    const res = await fetch(`${http}/ready`).catch(() => undefined);
    if (res?.status === 200) return Date.now();
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("reconnecting after a node restart", () => {
  it("brings every client of a restarted node back within 5 s of its /ready", async () => {
    const peers = configs.map((c) => new MeshClient(c));
    clients.push(...peers);
    await Promise.all(peers.map((p) => p.connect()));
    const port = broker!.port;

    // The node stops (every socket closed 1001, the listener gone) and stays down for a while.
    await broker!.close();
    broker = undefined;
    const back = peers.map((p) => new Promise<number>((resolve) => p.once("connected", () => resolve(Date.now()))));
    let attempts = 0;
    for (const p of peers) p.on("reconnecting", () => (attempts += 1));
    await new Promise((r) => setTimeout(r, DOWN_MS));

    broker = await startBroker(db, env, { port });
    const ready = await readyAt(broker.http);
    const lateness = (await Promise.all(back)).map((t) => Math.max(0, t - ready)).sort((a, b) => a - b);
    const max = lateness.at(-1)!;
    console.log(
      `${PEERS} clients after ${DOWN_MS / 1000} s down: back after /ready p50 ${lateness[PEERS >> 1]} ms, ` +
        `max ${max} ms; ${attempts} reconnect attempts in all`,
    );
    expect(peers.every((p) => p.connected)).toBe(true);
    expect(max).toBeLessThan(5_000);
    // Not a herd of retries while it was down: a few attempts per client and second at most.
    expect(attempts / PEERS).toBeLessThan((DOWN_MS / 1000) * 3);
  }, 60_000);

  it("waits the Retry-After of a 503 refusal (no sooner, and soon after), even beyond its own back-off cap", async () => {
    const seen: number[] = [];
    const RETRY_AFTER_S = 4;
    const node = http.createServer((_req, res) => res.writeHead(404).end());
    node.on("upgrade", (_req, socket) => {
      seen.push(Date.now());
      const body = JSON.stringify({ error: { code: "SERVICE_UNAVAILABLE", message: "busy" } });
      socket.end(
        `HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-type: application/json\r\n` +
          `retry-after: ${RETRY_AFTER_S}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
    const { port } = node.address() as AddressInfo;
    const c = new MeshClient({ ...configs[0]!, brokerUrl: `ws://127.0.0.1:${port}` });
    clients.push(c);
    const told: number[] = [];
    c.on("disconnected", () => told.push(Date.now()));
    try {
      void c.connect().catch(() => {});
      while (seen.length < 3) await new Promise((r) => setTimeout(r, 20));
      await c.close();
      for (const i of [1, 2]) {
        const waited = seen[i]! - told[i - 1]!;
        // Timers may fire a millisecond early; a loaded machine makes them late, never early.
        expect(waited).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 5);
        expect(waited).toBeLessThan(RETRY_AFTER_S * 1000 + 1_000 + 1_000);
      }
    } finally {
      await new Promise<void>((resolve) => node.close(() => resolve()));
    }
  }, 30_000);

  it("is told by a draining node to come back in 1 s (it is going away, not busy)", async () => {
    // Last in the file: a node never stops draining.
    broker!.readiness.drain();
    const c = new MeshClient(configs[1]!);
    clients.push(c);
    const told: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const end = new Promise((resolve) => c.once("disconnected", resolve));
      if (i === 0) void c.connect().catch(() => {});
      told.push(await end);
    }
    await c.close();
    for (const end of told) expect(end).toMatchObject({ kind: "refused", status: 503, retryAfterSeconds: 1 });
  }, 30_000);
});
