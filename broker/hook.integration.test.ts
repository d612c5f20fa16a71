import http from "node:http";
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import {
  eventually,
  hookRequest,
  joinedPeer,
  meshWithInvite,
  startBroker,
  TestClient,
  type TestBroker,
  type TestPeer,
} from "./test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, { MAX_MESSAGE_BYTES: "2048", HOOK_RATE_CAPACITY: "3", HOOK_RATE_PER_MINUTE: "3" });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

async function twoPeers(): Promise<[TestPeer, TestPeer]> {
  const { invite } = await meshWithInvite(db);
  return [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
}

const hook = (
  peer: TestPeer,
  fields: Record<string, unknown> = {},
  opts: { secretKey?: Uint8Array; signBody?: string } = {},
) => hookRequest(broker.http, peer, fields, opts);

describe("POST /hook/set-status", () => {
  it("sets the status of a signed peer, reaches the mesh's connected peers and keeps it for a peer not yet connected", async () => {
    const [a, b] = await twoPeers();
    const cb = await TestClient.open(broker, b);
    const res = await hook(a, { status: "reviewing", text: "PR 12" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ memberId: a.memberId, status: "reviewing", text: "PR 12", connected: false });
    expect(res.headers.get("ratelimit-policy")).toBe('"hook";q=3;w=60');
    expect(await cb.next((f) => f.type === "status" && f.memberId === a.memberId)).toMatchObject({
      status: "reviewing",
      text: "PR 12",
    });
    // A connects later: its presence starts with the status the hook set.
    const ca = await TestClient.open(broker, a);
    const connectionId = ca.frames[0]?.type === "welcome" ? ca.frames[0].connectionId : "";
    expect(await db.presence.findUniqueOrThrow({ where: { connectionId } })).toMatchObject({
      status: "reviewing",
      statusText: "PR 12",
    });
    const again = await hook(a, { status: "idle", cwd: "/elsewhere" });
    expect(await again.json()).toMatchObject({ connected: true });
    await eventually(async () => (await db.presence.findUniqueOrThrow({ where: { connectionId } })).status === "idle");
    await Promise.all([ca.close(), cb.close()]);
  });

  it("refuses a wrong key, a body other than the signed one, a bad body and another method", async () => {
    const [a] = await twoPeers();
    const stranger = nacl.sign.keyPair();
    expect((await hook(a, {}, { secretKey: stranger.secretKey })).status).toBe(401);
    expect((await hook(a, { status: "hacked" }, { signBody: "{}" })).status).toBe(401);
    const bad = await hook(a, { status: "Not A Status!" });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as {
      error: { code: string; details: { issues: { path: string; message: string }[] } };
    };
    expect(body.error.code).toBe("BAD_REQUEST");
    // The one shape of validation details (docs/mesh-api.md, "Visibility and errors").
    expect(body.error.details.issues.map((i) => i.path)).toContain("status");
    const get = await fetch(`${broker.http}/hook/set-status`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("answers 413 to a body above MAX_MESSAGE_BYTES, declared or streamed", async () => {
    const declared = await fetch(`${broker.http}/hook/set-status`, { method: "POST", body: "x".repeat(3000) });
    expect(declared.status).toBe(413);
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${broker.http}/hook/set-status`,
        { method: "POST", headers: { "transfer-encoding": "chunked" } },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on("error", reject);
      let sent = 0;
      const pump = () => {
        while (sent < 64 * 1024) {
          sent += 1024;
          if (!req.write("y".repeat(1024))) return req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
    expect(streamed).toBe(413);
  });

  it("rate limits per (process id, working directory) with 429, Retry-After and RateLimit headers", async () => {
    const [a] = await twoPeers();
    for (let i = 0; i < 3; i++) expect((await hook(a, { pid: 777, cwd: "/busy" })).status).toBe(200);
    const denied = await hook(a, { pid: 777, cwd: "/busy" });
    expect(denied.status).toBe(429);
    expect(Number(denied.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(denied.headers.get("ratelimit")).toMatch(/^"hook";r=0;t=\d+$/);
    expect((await denied.json()).error.code).toBe("TOO_MANY_REQUESTS");
    // Another script (other pid, or same pid elsewhere) has its own bucket.
    expect((await hook(a, { pid: 778, cwd: "/busy" })).status).toBe(200);
    expect((await hook(a, { pid: 777, cwd: "/calm" })).status).toBe(200);
    const metrics = await (await fetch(`${broker.http}/metrics`)).text();
    expect(metrics).toMatch(/^broker_hook_requests_total\{result="rate_limited"\} [1-9]/m);
    expect(metrics).toMatch(/^broker_rate_limit_buckets [3-9]/m);
    expect(await broker.hookLimiter.count()).toBeGreaterThanOrEqual(3);
  });
});

describe("status lease (STATUS_LEASE_MS)", () => {
  it("ends a hook's status after the lease: idle with a connection, offline without; later hooks and activity renew it; peers see each change", async () => {
    const leased = await startBroker(db, { STATUS_LEASE_MS: "600" });
    try {
      const [a, b] = await twoPeers();
      const cb = await TestClient.open(leased, b);
      const statusOf =
        (memberId: string, status: string) => (f: { type: string; memberId?: string; status?: string }) =>
          f.type === "status" && f.memberId === memberId && f.status === status;

      // A has no connection: its "working" lapses to offline, and B is told.
      expect((await hookRequest(leased.http, a, { status: "working", cwd: "/lease-1" })).status).toBe(200);
      const started = Date.now();
      await cb.next(statusOf(a.memberId, "offline"), 5_000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
      expect(await db.member.findUniqueOrThrow({ where: { id: a.memberId } })).toMatchObject({
        status: "offline",
        statusText: null,
        statusLeaseUntil: null,
      });

      // B sets its status by hook while connected, and keeps being active (peers requests): the lease
      // is renewed, so it still holds after more than a lease.
      expect((await hookRequest(leased.http, b, { status: "reviewing", cwd: "/lease-2" })).status).toBe(200);
      const until = Date.now() + 1_500;
      while (Date.now() < until) {
        cb.raw({ v: 1, type: "peers" });
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await db.member.findUniqueOrThrow({ where: { id: b.memberId } })).status).toBe("reviewing");
      // Then quiet: it returns to idle (B is connected) and its own connection is told.
      await cb.next(statusOf(b.memberId, "idle"), 5_000);
      expect((await db.member.findUniqueOrThrow({ where: { id: b.memberId } })).status).toBe("idle");
      // A status the client sets itself has no lease: it replaces the hook's, and stays.
      expect((await hookRequest(leased.http, b, { status: "working", cwd: "/lease-3" })).status).toBe(200);
      expect((await db.member.findUniqueOrThrow({ where: { id: b.memberId } })).statusLeaseUntil).not.toBeNull();
      cb.raw({ v: 1, type: "set_status", id: "s1", status: "dnd" });
      await cb.next((f) => f.type === "status" && f.memberId === b.memberId && f.status === "dnd");
      expect(await db.member.findUniqueOrThrow({ where: { id: b.memberId } })).toMatchObject({
        status: "dnd",
        statusLeaseUntil: null,
      });
      await new Promise((r) => setTimeout(r, 1_000));
      expect((await db.member.findUniqueOrThrow({ where: { id: b.memberId } })).status).toBe("dnd");
      await cb.close();
    } finally {
      await leased.close();
    }
  }, 20_000);
});
