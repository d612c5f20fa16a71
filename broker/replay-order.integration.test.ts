// A replay must not step over a message committed after it read past that message's seq. Sequence
// numbers are taken when a store inserts and made visible when it commits, so with several nodes (or
// any writer) a lower seq can become visible after a higher one: a replay that had read up to the
// higher one, and then learnt of the lower one live, read on from its cursor and left the message to
// the redelivery pass, an ack timeout later and out of order.
import type WebSocket from "ws";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import { insertMessages } from "./store/message-store";
import { MESSAGES_CHANNEL } from "./messages/hub-types";
import { fakeCiphertext, joinedPeer, meshWithInvite, stalledConnection, startBroker, TestClient } from "./test-support";

const db = testDb();
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

it("delivers a message whose lower seq was committed while the replay was past it, without waiting for redelivery", async () => {
  // No redelivery within the test: only the replay can hand the message out. A small buffer budget,
  // so the replay stops and waits for room while the recipient does not read.
  const broker = await startBroker(db, {
    MESSAGE_ACK_TIMEOUT_MS: "600000",
    WS_MAX_BUFFERED_BYTES: "16384",
    WS_SLOW_CONSUMER_MS: "600000",
    WS_SEND_RATE_PER_SECOND: "100000",
  });
  const client = await pool.connect();
  let ws: WebSocket | undefined;
  try {
    const { invite } = await meshWithInvite(db, { maxUses: 5 });
    const [a, b] = [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
    // Another writer (as another node would) stores a message for b and has not committed yet: its seq
    // is lower than every message the broker stores after it.
    await client.query("BEGIN");
    const [early] = await insertMessages(
      client,
      [
        {
          id: crypto.randomUUID(),
          meshId: a!.meshId,
          senderMemberId: a!.memberId,
          targetSpec: { kind: "peer", memberId: b!.memberId },
          priority: "normal",
          ciphertext: Buffer.from(fakeCiphertext(64), "base64url"),
          recipients: [b!.memberId],
        },
      ],
      600_000,
      { channel: MESSAGES_CHANNEL, nodeId: "another-node" },
    );
    // 12 MB for b through the broker, more than the sockets' buffers hold.
    const ca = await TestClient.open(broker, a!);
    for (let batch = 0; batch < 6; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => ca.send({ kind: "peer", memberId: b!.memberId }, fakeCiphertext(40 * 1024))),
      );
      expect(answers.filter((f) => f.type !== "sent")).toEqual([]);
    }
    await ca.close();
    // b connects and stops reading after its welcome: the replay sends until the buffers are full, then waits.
    const stalled = await stalledConnection(broker, b!);
    ws = stalled.ws;
    const received = () => stalled.frames.flatMap((f) => (f.type === "message" ? [f.messageId] : []));
    await new Promise((r) => setTimeout(r, 1_000));
    // The early message commits now; its notification reaches the broker while b's replay waits.
    await client.query("COMMIT");
    await new Promise((r) => setTimeout(r, 1_000));
    ws.resume();
    // A page a message, each after the socket drained: ~8 s on an idle machine, more on a busy one.
    const until = Date.now() + 45_000;
    while (received().length < 301 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(received().length).toBe(301);
    // Within the replay, not after it: the replay was still waiting for room when the message committed
    // (were the sockets' buffers to hold all 16 MB, it would come last, live, and prove nothing).
    expect(received().indexOf(early!.id)).toBeGreaterThanOrEqual(0);
    expect(received().indexOf(early!.id)).toBeLessThan(300);
  } finally {
    ws?.terminate();
    await client.query("ROLLBACK").catch(() => {});
    client.release();
    await broker.close();
  }
}, 120_000);
