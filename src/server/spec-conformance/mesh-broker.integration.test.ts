// Document 2 (spec/mesh-broker.md), checked with the spec's own literal values: each test names the
// sentence it checks. A real broker on a loopback port, real PostgreSQL.
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64Url } from "@/server/core/encoding";
import { testDb } from "@/test/helpers";
import {
  as,
  brokerProcess,
  connect,
  hookRequest,
  joinedPeer,
  meshWithInvite,
  startBroker,
  type BrokerProcess,
  type TestBroker,
  type TestPeer,
} from "../../../broker/test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

const join = (token: string) =>
  fetch(`${broker.http}/join`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, peerPubkey: toBase64Url(nacl.sign.keyPair().publicKey), displayName: "Conformance" }),
  });

/** The same payload, still validly signed (the signature covers the canonical bytes, not the text), written another way. */
function reencoded(token: string, how: "reordered" | "whitespace" | "padding"): string {
  const text = Buffer.from(token, "base64url").toString("utf8");
  if (how === "padding") return Buffer.from(text).toString("base64").replace(/\+/g, "-").replace(/\//g, "_");
  const payload = JSON.parse(text) as Record<string, unknown>;
  if (how === "whitespace") return Buffer.from(JSON.stringify(payload, null, 1)).toString("base64url");
  const reversed = Object.fromEntries(Object.entries(payload).reverse());
  return Buffer.from(JSON.stringify(reversed)).toString("base64url");
}

describe("Document 2: join rules", () => {
  it('rule 1: "The invite is looked up by exact equality of the submitted token string with the stored invite token"', async () => {
    const { mesh, invite } = await meshWithInvite(db);
    const members = () => db.member.count({ where: { meshId: mesh.id } });
    const before = await members();
    // A validly signed payload in another spelling is not the stored token: no invite, no member.
    for (const how of ["reordered", "whitespace"] as const) {
      const other = reencoded(invite.token, how);
      expect(other).not.toBe(invite.token);
      const res = await join(other);
      expect(res.status, how).toBe(404);
      expect(await res.json(), how).toEqual({ error: { code: "invite_not_found", message: expect.any(String) } });
    }
    // With padding it is not even a token of this codec (rule 2: base64url, which has none).
    const padded = reencoded(invite.token, "padding");
    if (padded !== invite.token) {
      const res = await join(padded);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invite_malformed");
    }
    expect(await members()).toBe(before);
    // The stored spelling joins.
    expect((await join(invite.token)).status).toBe(200);
    expect(await members()).toBe(before + 1);
  });

  it('rule 4: "When the signature does not verify the join is rejected with invite_bad_signature"', async () => {
    const { invite } = await meshWithInvite(db);
    const payload = JSON.parse(Buffer.from(invite.token, "base64url").toString("utf8")) as Record<string, string>;
    const sig = payload.signature ?? "";
    payload.signature = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    const res = await join(Buffer.from(JSON.stringify(payload)).toString("base64url"));
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invite_bad_signature");
  });
});

const metric = async (base: string, name: string) =>
  Number(
    new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, "m").exec(await (await fetch(`${base}/metrics`)).text())?.[1] ?? 0,
  );

describe("Document 2: the defaults, on a broker process started without overrides", () => {
  let proc: BrokerProcess;
  beforeAll(async () => {
    // Only where to listen, its node id and the log level are given: every limit is the default.
    proc = await brokerProcess("spec-defaults", { LOG_LEVEL: "info" });
  }, 60_000);
  afterAll(async () => {
    proc.child.kill("SIGTERM");
    await proc.exited;
  });
  const asBroker = () => proc as unknown as TestBroker;

  it('MAX_CONNECTIONS_PER_MESH "100 by default": then "closed with code 1008 and reason \'capacity\'" and "a capacity metric is incremented"', async () => {
    const { owner, mesh } = await meshWithInvite(db);
    // Five connections a member at most (the product's own per-member cap): 20 members hold 100. Five
    // members an invite: the members of one invite hold 25 connections at most (MAX_CONNECTIONS_PER_INVITE).
    const peers: TestPeer[] = [];
    let token = "";
    for (let i = 0; i < 21; i++) {
      if (i % 5 === 0) token = (await as(db, owner).my.createInvite({ meshId: mesh.id })).token;
      peers.push(await joinedPeer(db, token, `cap-${i}`));
    }
    const sockets = [];
    try {
      for (let i = 0; i < 100; i++) {
        const opened = await connect(asBroker(), peers[Math.floor(i / 5)]!);
        expect(opened.ok, `connection ${i + 1}`).toBe(true);
        if (opened.ok) sockets.push(opened.ws);
      }
      const before = await metric(proc.http, "broker_capacity_rejections_total");
      await expect(connect(asBroker(), peers[20]!)).rejects.toThrow("closed before welcome: 1008 capacity");
      expect(await metric(proc.http, "broker_capacity_rejections_total")).toBe(before + 1);
    } finally {
      for (const ws of sockets) ws.close();
    }
  }, 60_000);

  it('MAX_MESSAGE_BYTES "65536 by default" for "hook POST body size": above it 413', async () => {
    const post = (bytes: number) =>
      fetch(`${proc.http}/hook/set-status`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "x".repeat(bytes),
      });
    expect((await post(65_537)).status).toBe(413);
    // At the cap the body is read (and refused for what it is, not for its size).
    expect((await post(65_536)).status).not.toBe(413);
  });

  it('MAX_MESSAGE_BYTES "65536 by default" as "ws max payload": a bigger frame closes the connection (1009)', async () => {
    const { invite } = await meshWithInvite(db);
    const peer = await joinedPeer(db, invite.token, "big-frames");
    const opened = await connect(asBroker(), peer);
    if (!opened.ok) throw new Error("no connection");
    const closedWith = new Promise<number>((resolve) => opened.ws.once("close", (code) => resolve(code)));
    opened.ws.send(JSON.stringify({ type: "ping", pad: "x".repeat(65_536) }));
    expect(await closedWith).toBe(1009);
  });

  it('status hook rate "30 per minute by default", "per (process id, working directory)"', async () => {
    const { invite } = await meshWithInvite(db);
    const peer = await joinedPeer(db, invite.token, "hooks");
    for (let i = 0; i < 30; i++)
      expect((await hookRequest(proc.http, peer, { pid: 31_000, cwd: "/spec" })).status, `hook ${i + 1}`).toBe(200);
    expect((await hookRequest(proc.http, peer, { pid: 31_000, cwd: "/spec" })).status).toBe(429);
    expect((await hookRequest(proc.http, peer, { pid: 31_000, cwd: "/spec-other" })).status).toBe(200);
    expect((await hookRequest(proc.http, peer, { pid: 31_001, cwd: "/spec" })).status).toBe(200);
  });

  it('Logs: "one structured JSON line per event, written to standard error"', () => {
    // The tests above made the broker log (connections, refusals): on standard error, JSON, one per line.
    expect(proc.stdout()).toBe("");
    const lines = proc.stderr().trim().split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({
        level: expect.any(Number),
        time: expect.any(String),
        msg: expect.any(String),
      });
  });
});

describe("Document 2: rate-limit bucket rules, on the broker's own hook limiter with a controlled clock", () => {
  it('rules 1-6, with "30 per minute by default" and "bucket sweep threshold 10 minutes by default"', async () => {
    let now = 1_000_000;
    const clocked = await startBroker(db, {}, { now: () => now });
    try {
      const limiter = clocked.hookLimiter;
      // The buckets live in the shared rate_limits table: other tests' hook buckets of this file count too.
      const others = await limiter.count();
      // Rule 1: a key with no bucket starts with tokens equal to the capacity (30): 30 takes pass.
      for (let i = 0; i < 30; i++) expect((await limiter.take("4242|/a")).allowed).toBe(true);
      // Rule 3: below 1 the take is denied and nothing is consumed.
      expect((await limiter.take("4242|/a")).allowed).toBe(false);
      expect((await limiter.peek("4242|/a"))?.tokens).toBe(0);
      // Rule 2: 30 per minute is one token every 2,000 ms, capped at the capacity.
      now += 1_999;
      expect((await limiter.take("4242|/a")).allowed).toBe(false);
      now += 1;
      expect((await limiter.take("4242|/a")).allowed).toBe(true);
      now += 3_600_000;
      await limiter.take("4242|/a");
      expect((await limiter.peek("4242|/a"))?.tokens).toBe(29);
      // Rule 6: the number of held buckets can be read.
      await limiter.take("4243|/b");
      expect(await limiter.count()).toBe(others + 2);
      // Rule 5: a bucket idle for exactly 10 minutes stays; one idle for longer goes.
      now += 10 * 60_000;
      expect(await limiter.sweep()).toBe(0);
      now += 1;
      expect(await limiter.sweep()).toBe(2);
      expect(await limiter.count()).toBe(others);
    } finally {
      await clocked.close();
    }
  });
});
