// Issue 17, point 1: a member whose connections never read cannot make the broker buffer its queue
// in memory, slow other peers down, or lose a message (docs/protocol.md, "Flow control").
// Time budget: about 60 s (20 MB queued, 50 stalled connections against a broker process).
import WebSocket from "ws";
import { afterAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import { residentBytes } from "@/test/processes";
import type { TServerFrame } from "./protocol/frames";
import {
  brokerProcess,
  closed,
  eventually,
  fakeCiphertext,
  joinedPeer,
  meshWithInvite,
  stalledConnection,
  startBroker,
  TestClient,
} from "./test-support";

const db = testDb();
afterAll(async () => {
  await db.$disconnect();
});

const MIB = 1024 * 1024;
type MessageFrame = Extract<TServerFrame, { type: "message" }>;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? Number.NaN;

describe("flow control", () => {
  it("50 stalled connections of one member with a 20 MB queue: memory bounded, others on time, nothing lost", async () => {
    const broker = await brokerProcess("flow", {
      MAX_CONNECTIONS_PER_MESH: "200",
      MAX_CONNECTIONS_PER_MEMBER: "60",
      MAX_CONNECTIONS_PER_INVITE: "200",
      WS_SLOW_CONSUMER_MS: "600000",
      WS_AUTH_RATE_PER_MINUTE: "100000",
      WS_SEND_RATE_PER_SECOND: "100000",
    });
    const stalled: WebSocket[] = [];
    try {
      const { invite } = await meshWithInvite(db, { maxUses: 10 });
      const [sender, victim, p1, p2] = [
        await joinedPeer(db, invite.token, "sender"),
        await joinedPeer(db, invite.token, "victim"),
        await joinedPeer(db, invite.token, "p1"),
        await joinedPeer(db, invite.token, "p2"),
      ];
      // 20 MB for the victim while it is away: 450 messages of 45 KB (60 KB frames).
      const cs = await TestClient.open(broker, sender!);
      const ids = new Set<string>();
      for (let batch = 0; batch < 9; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, () =>
            cs.send({ kind: "peer", memberId: victim!.memberId }, fakeCiphertext(45 * 1024)),
          ),
        );
        for (const a of answers) if (a.type === "sent") ids.add(a.messageId);
      }
      expect(ids.size).toBe(450);
      await cs.close();

      const [c1, c2] = [await TestClient.open(broker, p1!), await TestClient.open(broker, p2!)];
      const pid = broker.child.pid!;
      const before = residentBytes(pid);
      let peak = before;
      const sampler = setInterval(() => {
        try {
          peak = Math.max(peak, residentBytes(pid));
        } catch {
          // the process is gone; the test fails below
        }
      }, 50);

      for (let i = 0; i < 50; i++) stalled.push((await stalledConnection(broker, victim!)).ws);

      // Meanwhile two other peers talk: 150 messages, one every 20 ms.
      const latencies: number[] = [];
      const sentAt = new Map<string, number>();
      c2.ws.on("message", (data) => {
        const f = JSON.parse(String(data)) as TServerFrame;
        if (f.type === "message") {
          const t0 = sentAt.get(f.ciphertext);
          if (t0 !== undefined) latencies.push(performance.now() - t0);
          c2.ack([f.messageId]);
        }
      });
      const answers: Promise<TServerFrame>[] = [];
      for (let i = 0; i < 150; i++) {
        const text = fakeCiphertext(256);
        sentAt.set(text, performance.now());
        answers.push(c1.send({ kind: "peer", memberId: p2!.memberId }, text));
        await new Promise((r) => setTimeout(r, 20));
      }
      const settled = await Promise.allSettled(answers);
      expect(settled.map((a) => (a.status === "fulfilled" ? a.value.type : String(a.reason)))).toEqual(
        Array(150).fill("sent"),
      );
      await eventually(async () => latencies.length === 150, 10_000);
      // Let the stalled connections' replays settle, then read the peak.
      await new Promise((r) => setTimeout(r, 1_000));
      clearInterval(sampler);
      const grew = peak - before;
      const p99 = percentile(latencies, 99);
      console.log(
        `flow control: broker resident ${Math.round(before / MIB)} MB -> peak ${Math.round(peak / MIB)} MB (+${Math.round(grew / MIB)} MB); other peers' p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
      );
      expect(grew, "broker resident memory growth").toBeLessThan(150 * MIB);
      expect(p99, "other peers' delivery p99 (ms)").toBeLessThan(100);

      // One of the victim's connections starts reading: every message comes, and is acknowledged.
      const reader = stalled[0]!;
      const got = new Set<string>();
      reader.on("message", (data) => {
        const f = JSON.parse(String(data)) as TServerFrame;
        if (f.type === "message") {
          got.add((f as MessageFrame).messageId);
          reader.send(JSON.stringify({ v: 1, type: "ack", messageIds: [(f as MessageFrame).messageId] }));
        }
      });
      reader.resume();
      await eventually(async () => got.size === ids.size, 30_000);
      expect([...got].sort()).toEqual([...ids].sort());
      await Promise.all([c1.close(), c2.close()]);
    } catch (error) {
      console.log(broker.output().slice(-3000));
      throw error;
    } finally {
      for (const ws of stalled) ws.terminate();
      broker.child.kill("SIGTERM");
      await broker.exited;
    }
  }, 180_000);

  it("closes a connection that stays over its budget with 4408 slow_consumer, and keeps its messages queued", async () => {
    const broker = await startBroker(db, {
      WS_MAX_BUFFERED_BYTES: String(256 * 1024),
      WS_SLOW_CONSUMER_MS: "1000",
      WS_SEND_RATE_PER_SECOND: "100000",
    });
    try {
      const { invite } = await meshWithInvite(db);
      const [sender, slow] = [await joinedPeer(db, invite.token, "sender"), await joinedPeer(db, invite.token, "slow")];
      const cs = await TestClient.open(broker, sender!);
      const { ws } = await stalledConnection(broker, slow!);
      // Sends until the broker's side of the connection is over its budget (kernel buffers take the first megabytes).
      const sent: string[] = [];
      const serverSide = () => broker.connections.ofMember(slow!.meshId, slow!.memberId)[0];
      for (let i = 0; i < 2_000 && (serverSide()?.ws.bufferedAmount ?? 0) <= 256 * 1024; i++) {
        const a = await cs.send({ kind: "peer", memberId: slow!.memberId }, fakeCiphertext(40 * 1024));
        if (a.type === "sent") sent.push(a.messageId);
      }
      expect(serverSide()?.ws.bufferedAmount).toBeGreaterThan(256 * 1024);
      // Over budget for a second: the broker starts closing it; the client sees the code once it reads again.
      const server = serverSide()!;
      await eventually(async () => server.ws.readyState !== server.ws.OPEN, 20_000);
      const end = closed(ws);
      ws.resume();
      expect(await end).toMatchObject({ code: 4408, reason: "slow_consumer" });
      expect(await db.messageRecipient.count({ where: { memberId: slow!.memberId } })).toBe(sent.length);
      await cs.close();
    } finally {
      await broker.close();
    }
  }, 60_000);
});
