// Issue 17, points 2 and 3: one member cannot take a mesh's connection slots or flood the broker
// with frames, and observers only receive (docs/protocol.md, "Frame limits"; docs/mesh-api.md, roles).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import { QUEUE_DEPTH_SQL } from "./store/message-sweep";
import { signHookAuth, WS_AUTH_HEADER } from "./protocol/ws-auth";
import {
  as,
  closed,
  connect,
  fakeCiphertext,
  joinedPeer,
  meshWithInvite,
  startBroker,
  TestClient,
  type TestBroker,
} from "./test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, {
    MAX_CONNECTIONS_PER_MEMBER: "2",
    WS_SEND_RATE_PER_SECOND: "5",
    WS_PEERS_RATE_PER_MINUTE: "3",
    WS_MAX_LIMITED_FRAMES: "5",
  });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

describe("connections per member", () => {
  it("refuses a member's third connection with 1008 member_capacity while other members still connect", async () => {
    const { invite } = await meshWithInvite(db);
    const [a, b] = [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
    const first = await TestClient.open(broker, a);
    const second = await TestClient.open(broker, a);
    const third = await connect(broker, a).catch((error: Error) => error);
    expect(String(third)).toMatch(/closed before welcome: 1008 member_capacity/);
    const other = await TestClient.open(broker, b);
    await Promise.all([first.close(), second.close(), other.close()]);
  });
});

describe("frame limits", () => {
  it("answers sends past the limit with TOO_MANY_REQUESTS, then closes a connection that keeps on with 4429", async () => {
    const { invite } = await meshWithInvite(db);
    const [a, b] = [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
    const ca = await TestClient.open(broker, a);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => ca.send({ kind: "peer", memberId: b.memberId }, fakeCiphertext())),
    );
    const types = answers.map((f) => (f.type === "error" ? f.code : f.type));
    expect(types.filter((t) => t === "sent").length).toBeGreaterThanOrEqual(5);
    expect(types.filter((t) => t === "sent").length).toBeLessThan(8);
    expect(types.filter((t) => t !== "sent").every((t) => t === "TOO_MANY_REQUESTS")).toBe(true);
    // Ignoring the answers: after 5 more refusals the connection goes.
    const end = closed(ca.ws);
    for (let i = 0; i < 20 && ca.ws.readyState === ca.ws.OPEN; i++) ca.raw({ v: 1, type: "peers", id: `p${i}` });
    expect(await end).toMatchObject({ code: 4429, reason: "rate_limited" });
  });

  it("limits a member's connections together: four connections do not get four times the rate", async () => {
    const four = await startBroker(db, {
      MAX_CONNECTIONS_PER_MEMBER: "4",
      WS_SEND_RATE_PER_SECOND: "5",
      WS_MAX_LIMITED_FRAMES: "100",
    });
    try {
      const { invite } = await meshWithInvite(db);
      const [a, b] = [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
      const clients = await Promise.all(Array.from({ length: 4 }, () => TestClient.open(four, a)));
      // 5 at once per connection, 10 per member: 4 × 8 sends give about 10 `sent`, not 20.
      const answers = await Promise.all(
        clients.flatMap((c) =>
          Array.from({ length: 8 }, () => c.send({ kind: "peer", memberId: b.memberId }, fakeCiphertext())),
        ),
      );
      const sent = answers.filter((f) => f.type === "sent").length;
      expect(sent).toBeGreaterThanOrEqual(10);
      expect(sent).toBeLessThanOrEqual(13); // a token or two may refill while the frames arrive
      await Promise.all(clients.map((c) => c.close()));
    } finally {
      await four.close();
    }
  });
});

describe("observers", () => {
  it("receive messages and list peers, but cannot send or set a status (forbidden_role), nor through the hook (403)", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const member = await joinedPeer(db, invite.token, "member");
    const observerInvite = await as(db, owner).my.createInvite({ meshId: mesh.id, role: "observer" });
    const observer = await joinedPeer(db, observerInvite.token, "observer");
    const cm = await TestClient.open(broker, member);
    const co = await TestClient.open(broker, observer);

    expect(await co.send({ kind: "peer", memberId: member.memberId }, fakeCiphertext())).toMatchObject({
      type: "error",
      code: "FORBIDDEN",
      message: "forbidden_role",
    });
    co.raw({ v: 1, type: "set_status", id: "s1", status: "working" });
    expect(await co.next((f) => f.type === "error" && f.id === "s1")).toMatchObject({
      code: "FORBIDDEN",
      message: "forbidden_role",
    });
    co.raw({ v: 1, type: "peers", id: "p1" });
    expect(await co.next((f) => f.type === "peers" && f.id === "p1")).toMatchObject({ type: "peers" });

    const sent = await cm.send({ kind: "mesh" }, fakeCiphertext());
    expect(sent).toMatchObject({ type: "sent", recipients: 1 });
    expect((await co.waitMessages(1))[0]?.from).toBe(member.memberId);

    const body = JSON.stringify({
      meshId: observer.meshId,
      memberId: observer.memberId,
      pid: 7,
      cwd: "/tmp/x",
      status: "working",
    });
    const auth = signHookAuth({
      meshId: observer.meshId,
      memberId: observer.memberId,
      secretKey: observer.keys.secretKey,
      body,
    });
    const res = await fetch(`${broker.http}/hook/set-status`, {
      method: "POST",
      headers: { "content-type": "application/json", [WS_AUTH_HEADER]: auth },
      body,
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "FORBIDDEN", message: "forbidden_role" } });
    expect((await db.member.findUniqueOrThrow({ where: { id: observer.memberId } })).status).toBeNull();
    await Promise.all([cm.close(), co.close()]);
  });
});

describe("/metrics", () => {
  it("needs the bearer token when METRICS_TOKEN is set, compared in constant time", async () => {
    const guarded = await startBroker(db, { METRICS_TOKEN: "a-metrics-token-of-some-length" });
    try {
      expect((await fetch(`${guarded.http}/metrics`)).status).toBe(401);
      expect(
        (
          await fetch(`${guarded.http}/metrics`, {
            headers: { authorization: "Bearer a-metrics-token-of-some-lengtX" },
          })
        ).status,
      ).toBe(401);
      const ok = await fetch(`${guarded.http}/metrics`, {
        headers: { authorization: "Bearer a-metrics-token-of-some-length" },
      });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/^broker_queue_depth -?\d/m);
      // Without the setting, as before.
      expect((await fetch(`${broker.http}/metrics`)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it("reads the queue depth without scanning the queue", async () => {
    const [plan] = await db.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(`EXPLAIN (FORMAT JSON) ${QUEUE_DEPTH_SQL}`);
    expect(JSON.stringify(plan)).not.toContain('"Relation Name":"message_recipients"');
    expect(JSON.stringify(plan)).not.toContain('"Relation Name":"message_envelopes"');
  });
});
