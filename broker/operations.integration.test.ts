import { afterAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import {
  brokerProcess,
  closed,
  dbProxy,
  eventually,
  fakeCiphertext,
  joinedPeer,
  meshWithInvite,
  startBroker,
  TestClient,
} from "./test-support";

const db = testDb();
afterAll(async () => {
  await db.$disconnect();
});

async function twoPeers() {
  const { invite } = await meshWithInvite(db);
  return [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")] as const;
}

// The crash test sends as fast as it can; the frame limits have their own tests (limits.integration.test.ts).
const brokerProc = () => brokerProcess("proc", { WS_SEND_RATE_PER_SECOND: "100000" });

describe("broker operations", () => {
  it("answers 503 on /health while the database is unreachable, 200 after, and keeps its sockets", async () => {
    const proxy = await dbProxy(process.env.DATABASE_URL!);
    const broker = await startBroker(db, { DATABASE_URL: proxy.url });
    try {
      const [a, b] = await twoPeers();
      const ca = await TestClient.open(broker, a);
      const health = await fetch(`${broker.http}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", db: "up", version: "test", gitSha: "test" });

      await proxy.cut();
      await eventually(async () => (await fetch(`${broker.http}/health`)).status === 503, 10_000);
      expect(await (await fetch(`${broker.http}/health`)).json()).toMatchObject({ status: "degraded", db: "down" });
      expect(await (await fetch(`${broker.http}/metrics`)).text()).toMatch(/^broker_db_up 0/m);
      // A send while the database is away is refused, not lost silently: the sender keeps it.
      const refused = { v: 1, type: "send", id: "refused-1", to: { kind: "peer", memberId: b.memberId } };
      ca.raw({ ...refused, ciphertext: fakeCiphertext() });
      expect(await ca.next((f) => "id" in f && f.id === "refused-1")).toMatchObject({
        type: "error",
        code: "SERVICE_UNAVAILABLE",
      });

      await proxy.restore();
      await eventually(async () => (await fetch(`${broker.http}/health`)).status === 200, 10_000);
      expect(ca.ws.readyState).toBe(ca.ws.OPEN);
      // A later send of the connection waits for the refused one (docs/protocol.md, "Messages"): it is
      // refused the same way until that one comes again.
      expect(await ca.send({ kind: "peer", memberId: b.memberId }, fakeCiphertext())).toMatchObject({
        type: "error",
        code: "SERVICE_UNAVAILABLE",
        message: expect.stringMatching(/^send_order: .*refused-1/),
      });
      ca.raw({ ...refused, ciphertext: fakeCiphertext() });
      expect(await ca.next((f) => f.type === "sent" && f.id === "refused-1")).toMatchObject({ type: "sent" });
      expect(await ca.send({ kind: "peer", memberId: b.memberId }, fakeCiphertext())).toMatchObject({ type: "sent" });
      await ca.close();
    } finally {
      await broker.close();
      await proxy.close();
    }
  });

  it("on SIGTERM closes sockets with 1001 and exits 0", async () => {
    const proc = await brokerProc();
    const [a] = await twoPeers();
    const ca = await TestClient.open(proc, a);
    const done = closed(ca.ws);
    proc.child.kill("SIGTERM");
    expect(await done).toMatchObject({ code: 1001, reason: "server shutting down" });
    expect(await proc.exited).toBe(0);
  });

  it("a broker killed with messages in flight loses none that it acknowledged", async () => {
    const proc = await brokerProc();
    const [a, b] = await twoPeers();
    const ca = await TestClient.open(proc, a);
    const acked: string[] = [];
    ca.ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as { type: string; messageId?: string };
      if (frame.type === "sent" && frame.messageId) acked.push(frame.messageId);
    });
    // Keep sending until the broker dies under us.
    const sending = setInterval(() => {
      for (let i = 0; i < 20; i++)
        ca.raw({
          v: 1,
          type: "send",
          id: `k${Math.random()}`,
          to: { kind: "peer", memberId: b.memberId },
          ciphertext: fakeCiphertext(256),
        });
    }, 5);
    await eventually(async () => acked.length >= 100, 20_000);
    proc.child.kill("SIGKILL");
    await proc.exited;
    clearInterval(sending);
    expect(acked.length).toBeGreaterThanOrEqual(100);

    const restarted = await startBroker(db);
    try {
      const cb = await TestClient.open(restarted, b);
      const welcome = cb.frames[0];
      expect(welcome?.type === "welcome" && welcome.queued).toBeGreaterThanOrEqual(acked.length);
      const got = await cb.waitMessages(acked.length, 20_000);
      const ids = new Set(got.map((m) => m.messageId));
      expect(acked.filter((id) => !ids.has(id))).toEqual([]);
      await cb.close();
    } finally {
      await restarted.close();
    }
  });
});
