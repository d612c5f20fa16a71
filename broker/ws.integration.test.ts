import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb, uid } from "@/test/helpers";
import { signWsAuth } from "./protocol/ws-auth";
import {
  closed,
  connect,
  eventually,
  joinedPeer,
  meshWithInvite,
  nextFrame,
  startBroker,
  type TestBroker,
} from "./test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, { MAX_MESSAGE_BYTES: "1024", WS_MAX_BAD_FRAMES: "3" });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

async function peerInNewMesh(name = "peer") {
  const { invite } = await meshWithInvite(db);
  return { token: invite.token, peer: await joinedPeer(db, invite.token, name) };
}

describe("WebSocket authentication", () => {
  it("accepts a peer that signs with its key and welcomes it", async () => {
    const { peer } = await peerInNewMesh();
    const conn = await connect(broker, peer);
    if (!conn.ok) throw new Error(`refused ${conn.status}`);
    expect(conn.welcome).toMatchObject({
      v: 1,
      type: "welcome",
      meshId: peer.meshId,
      memberId: peer.memberId,
      maxMessageBytes: 1024,
    });
    conn.ws.close();
  });

  it("refuses with 401 before upgrading: bad signature, revoked member, wrong mesh, stale time, replay", async () => {
    const { peer } = await peerInNewMesh();
    const other = await peerInNewMesh();
    const revoked = await peerInNewMesh();
    await db.member.update({ where: { id: revoked.peer.memberId }, data: { revokedAt: new Date() } });
    const stranger = { ...peer, keys: other.peer.keys };
    const replayed = signWsAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey });
    const first = await connect(broker, peer, { auth: replayed });
    expect(first.ok).toBe(true);

    const refusals = [
      await connect(broker, stranger),
      await connect(broker, revoked.peer),
      await connect(broker, peer, { meshId: other.peer.meshId }),
      await connect(broker, peer, {
        auth: signWsAuth({
          meshId: peer.meshId,
          memberId: peer.memberId,
          secretKey: peer.keys.secretKey,
          ts: Date.now() - 120_000,
        }),
      }),
      await connect(broker, peer, { auth: replayed }),
      await connect(broker, peer, { auth: "v1.garbage" }),
    ];
    for (const r of refusals) {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.status).toBe(401);
        expect(JSON.parse(r.body)).toEqual({ error: { code: "UNAUTHORIZED", message: "authentication failed" } });
      }
    }
    const badIds = await connect(broker, peer, { memberId: "not-a-uuid" });
    expect(badIds).toMatchObject({ ok: false, status: 400 });
    if (first.ok) first.ws.close();
    expect(await (await fetch(`${broker.http}/metrics`)).text()).toMatch(
      /^broker_ws_auth_failures_total\{reason="bad_signature"\} [1-9]/m,
    );
  });
});

describe("capacity, frames and heartbeat", () => {
  it("closes a connection beyond MAX_CONNECTIONS_PER_MESH with 1008 capacity and counts it", async () => {
    const small = await startBroker(db, { MAX_CONNECTIONS_PER_MESH: "2" });
    try {
      const { token, peer } = await peerInNewMesh();
      const second = await joinedPeer(db, token, "second");
      const third = await joinedPeer(db, token, "third");
      const a = await connect(small, peer);
      const b = await connect(small, second);
      expect(a.ok && b.ok).toBe(true);
      await expect(connect(small, third)).rejects.toThrow("closed before welcome: 1008 capacity");
      expect(await (await fetch(`${small.http}/metrics`)).text()).toMatch(/^broker_capacity_rejections_total 1$/m);
      // Another mesh is not affected by this one's cap.
      const elsewhere = await connect(small, (await peerInNewMesh()).peer);
      expect(elsewhere.ok).toBe(true);
      expect(small.connections.countInMesh(peer.meshId)).toBe(2);
    } finally {
      await small.close();
    }
  });

  it("closes with 1009 on a frame above MAX_MESSAGE_BYTES", async () => {
    const conn = await connect(broker, (await peerInNewMesh()).peer);
    if (!conn.ok) throw new Error("refused");
    const done = closed(conn.ws);
    conn.ws.send(JSON.stringify({ v: 1, type: "ping", pad: "x".repeat(2000) }));
    expect((await done).code).toBe(1009);
  });

  it("answers a bad frame with an error frame and stays usable; closes 4400 after repeated abuse", async () => {
    const conn = await connect(broker, (await peerInNewMesh()).peer);
    if (!conn.ok) throw new Error("refused");
    const { ws } = conn;
    ws.send("not json");
    expect(await nextFrame(ws)).toMatchObject({
      v: 1,
      type: "error",
      code: "BAD_REQUEST",
      message: "frame is not JSON",
    });
    ws.send(JSON.stringify({ v: 1, type: "teleport", id: "a1" }));
    expect(await nextFrame(ws)).toMatchObject({ type: "error", code: "BAD_REQUEST", id: "a1" });
    ws.send(JSON.stringify({ v: 1, type: "ping", id: "p1" }));
    expect(await nextFrame(ws)).toMatchObject({ v: 1, type: "pong", id: "p1" });
    const done = closed(ws);
    ws.send(JSON.stringify({ v: 2, type: "ping" }));
    expect(await nextFrame(ws)).toMatchObject({ type: "error", message: expect.stringContaining("version") });
    expect(await done).toEqual({ code: 4400, reason: "too many bad frames" });
  });

  it("terminates a socket that stops answering pings", async () => {
    const fast = await startBroker(db, { WS_PING_INTERVAL_MS: "100" });
    try {
      const conn = await connect(fast, (await peerInNewMesh()).peer, { wsOptions: { autoPong: false } });
      if (!conn.ok) throw new Error("refused");
      expect((await closed(conn.ws)).code).toBe(1006);
      const live = await connect(fast, (await peerInNewMesh()).peer);
      await new Promise((r) => setTimeout(r, 350));
      expect(live.ok && live.ws.readyState === live.ws.OPEN).toBe(true);
      if (live.ok) live.ws.close();
    } finally {
      await fast.close();
    }
  });
});

describe("presence", () => {
  it("records a connected presence and marks it disconnected on close", async () => {
    const { peer } = await peerInNewMesh();
    const conn = await connect(broker, peer);
    if (!conn.ok) throw new Error("refused");
    const connectionId = conn.welcome.type === "welcome" ? conn.welcome.connectionId : "";
    const row = () => db.presence.findUnique({ where: { connectionId } });
    await eventually(async () => (await row()) !== null);
    expect(await row()).toMatchObject({
      meshId: peer.meshId,
      memberId: peer.memberId,
      nodeId: broker.nodeId,
      disconnectedAt: null,
    });
    expect(await (await fetch(`${broker.http}/metrics`)).text()).toMatch(/^broker_connections [1-9]/m);
    conn.ws.close();
    await eventually(async () => (await row())?.disconnectedAt instanceof Date);
  });

  it("closes this node's leftover presences at start-up, and only this node's", async () => {
    const { peer } = await peerInNewMesh();
    const nodeId = uid("node");
    const leftover = await db.presence.create({
      data: { meshId: peer.meshId, memberId: peer.memberId, nodeId, connectionId: uid("c") },
    });
    const foreign = await db.presence.create({
      data: { meshId: peer.meshId, memberId: peer.memberId, nodeId: uid("other"), connectionId: uid("c") },
    });
    const restarted = await startBroker(db, { BROKER_NODE_ID: nodeId });
    try {
      expect((await db.presence.findUniqueOrThrow({ where: { id: leftover.id } })).disconnectedAt).toBeInstanceOf(Date);
      expect((await db.presence.findUniqueOrThrow({ where: { id: foreign.id } })).disconnectedAt).toBeNull();
    } finally {
      await restarted.close();
    }
  });

  it("closes sockets with 1001 on shutdown and marks their presences disconnected", async () => {
    const own = await startBroker(db);
    const conn = await connect(own, (await peerInNewMesh()).peer);
    if (!conn.ok) throw new Error("refused");
    const done = closed(conn.ws);
    await own.close();
    expect((await done).code).toBe(1001);
    const connectionId = conn.welcome.type === "welcome" ? conn.welcome.connectionId : "";
    expect((await db.presence.findUniqueOrThrow({ where: { connectionId } })).disconnectedAt).toBeInstanceOf(Date);
  });
});
