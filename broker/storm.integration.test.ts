// Issue 17, point 8: 5,000 peers connect at once to a broker process while two CPU-bound processes run
// beside it. Nothing crashes, every refusal is retriable (503 with Retry-After, or 429), and the
// reference client's jittered reconnects bring every peer in. Time budget: about a minute on 2 cores.
// It runs in the "load" project, after the other integration tests and alone (.config/vitest.config.ts):
// beside 57 other test files its time swung from 70 s to a 300 s timeout.
import { spawn, type ChildProcess } from "node:child_process";
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ed25519KeyPairFromSeed } from "@/server/core/crypto/ed25519";
import { toBase64Url } from "@/server/core/encoding";
import { testDb } from "@/test/helpers";
import { makeMesh, makeUser } from "@/test/mesh-fixtures";
import { MeshClient, type TMeshConfig } from "./client";
import { brokerProcess, type BrokerProcess } from "./test-support";

const PEERS = Number(process.env.STORM_PEERS ?? 5_000);
const HOGS = Number(process.env.STORM_HOGS ?? 2);
// 25 members a mesh: every connection tells the others of its mesh (presence), and the load generator
// shares the two cores; with 100 a mesh it spends most of its time reading 250,000 presence frames.
const PER_MESH = 25;
const db = testDb();
let broker: BrokerProcess;
const hogs: ChildProcess[] = [];
const clients: MeshClient[] = [];

beforeAll(async () => {
  broker = await brokerProcess("storm", {
    // Every attempt comes from 127.0.0.1: the per-address limit would answer 429 to nearly all of them.
    WS_AUTH_RATE_PER_MINUTE: "1000000",
    NODE_OPTIONS: process.env.STORM_BROKER_NODE_OPTIONS,
  });
  // Two busy loops: the broker shares the machine's two cores with them (and with this test).
  for (let i = 0; i < HOGS; i++) hogs.push(spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
}, 120_000);

afterAll(async () => {
  for (const h of hogs) h.kill("SIGKILL");
  await Promise.all(clients.map((c) => c.close()));
  broker.child.kill("SIGTERM");
  await broker.exited;
  await db.$disconnect();
}, 120_000);

async function stormMembers(): Promise<TMeshConfig[]> {
  const owner = await makeUser(db);
  const configs: TMeshConfig[] = [];
  for (let m = 0; m < PEERS / PER_MESH; m++) {
    const mesh = await makeMesh(db, owner, `storm ${m}`);
    const seeds = Array.from({ length: PER_MESH }, () => nacl.randomBytes(32));
    const rows = seeds.map((seed, i) => ({
      id: crypto.randomUUID(),
      meshId: mesh.id,
      displayName: `p${m}-${i}`,
      peerPubkey: toBase64Url(ed25519KeyPairFromSeed(seed).publicKey),
    }));
    await db.member.createMany({ data: rows });
    rows.forEach((row, i) =>
      configs.push({
        version: 1,
        meshId: mesh.id,
        meshSlug: mesh.slug,
        memberId: row.id,
        role: "member",
        displayName: row.displayName,
        brokerUrl: broker.ws,
        joinedAt: new Date().toISOString(),
        meshRootKey: toBase64Url(nacl.randomBytes(32)),
        signSeed: toBase64Url(seeds[i]!),
        boxSecretKey: toBase64Url(nacl.randomBytes(32)),
      }),
    );
  }
  return configs;
}

describe("connect storm", () => {
  it("5,000 peers at once beside two CPU hogs: no crash, only retriable refusals, and all of them end up connected", async () => {
    const configs = await stormMembers();
    const refusals = new Map<string, number>();
    // The 5,000 clients share one process and the starved cores: a 10 s handshake timeout there fires
    // for answers the broker already sent but the load generator has not read yet (its timers run
    // before its sockets in an event-loop turn). Peers on machines of their own do not starve so; the
    // retries those false timeouts caused (11,000 to 39,000 a run) were most of the storm's load.
    for (const config of configs) clients.push(new MeshClient(config, { receive: false, handshakeTimeoutMs: 30_000 }));
    const started = Date.now();
    const connected = clients.map((client) => {
      client.on("disconnected", (end) => {
        const key =
          end.kind === "refused"
            ? `${end.status}${end.retryAfterSeconds ? " retry-after" : ""}`
            : `${end.kind} ${end.kind === "closed" ? `${end.code} ${end.reason}` : end.message}`;
        refusals.set(key, (refusals.get(key) ?? 0) + 1);
      });
      return client.connect();
    });
    const results = await Promise.allSettled(connected);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `storm: ${PEERS} connected in ${seconds.toFixed(1)} s; refusals ${JSON.stringify(Object.fromEntries(refusals))}`,
    );

    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(clients.every((c) => c.connected)).toBe(true);
    // Every answer of the broker that refused an attempt was retriable: 503 or 429, with Retry-After;
    // no connection was accepted and then closed (a leaked presence would close them 1008 capacity).
    // Client-side failures (the load generator shares the two starved cores, so some of its handshakes
    // time out after 10 s) are retried by the client like any network failure, and counted above.
    for (const key of refusals.keys()) expect(key).toMatch(/^((503|429) retry-after|failed .*)$/);
    expect(broker.child.exitCode).toBeNull();
    expect(broker.output()).not.toMatch(/unhandled|uncaught|"level":(50|60)/i);
    const live = await db.presence.count({
      where: { memberId: { in: configs.map((c) => c.memberId) }, disconnectedAt: null },
    });
    expect(live).toBe(PEERS);
    expect((await fetch(`${broker.http}/health`)).status).toBe(200);
  }, 300_000);
});
