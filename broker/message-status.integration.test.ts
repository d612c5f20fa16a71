// The `message_status` frame (docs/protocol.md, "Receipts"): the broker tells the sender of a message, and
// only it, where each recipient's copy is: queued, sent to a connection, delivered (acknowledged), or gone
// (the member was removed). Real broker, real PostgreSQL, raw frames.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import type { TMessageStatus, TServerFrame } from "./protocol/frames";
import {
  as,
  eventually,
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
  // Polled in a loop below: more `message_status` frames than the default 60 a minute.
  broker = await startBroker(db, {
    MESSAGE_ACK_TIMEOUT_MS: "60000",
    MESSAGE_ACK_BATCH_WAIT_MS: "5",
    WS_PEERS_RATE_PER_MINUTE: "6000",
  });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

let asked = 0;
/** Asks the broker about messages over the client's connection; the answer's messages, or the error frame. */
async function statusOf(client: TestClient, messageIds: unknown): Promise<TMessageStatus[] | TServerFrame> {
  const id = `status-${++asked}`;
  client.raw({ v: 1, type: "message_status", id, messageIds });
  const answer = await client.next((f) => (f.type === "message_status" || f.type === "error") && f.id === id);
  return answer.type === "message_status" ? answer.messages : answer;
}
const states = (s: TMessageStatus[] | TServerFrame) =>
  Array.isArray(s) ? Object.fromEntries((s[0]?.recipients ?? []).map((r) => [r.memberId, r.state])) : s;

describe("message_status", () => {
  it("tells the sender alone, per recipient, queued, delivered and gone", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const [ana, bo, cy, dy] = [
      await joinedPeer(db, invite.token, "ana"),
      await joinedPeer(db, invite.token, "bo"),
      await joinedPeer(db, invite.token, "cy"),
      await joinedPeer(db, invite.token, "dy"),
    ];
    const a = await TestClient.open(broker, ana);
    const b = await TestClient.open(broker, bo);
    const c = await TestClient.open(broker, cy); // receives, does not ack (yet)
    const sent = await a.send({ kind: "peers", memberIds: [bo.memberId, cy.memberId, dy.memberId] }, fakeCiphertext());
    if (sent.type !== "sent") throw new Error(JSON.stringify(sent));
    const [copy] = await b.waitMessages(1);
    await c.waitMessages(1);
    b.ack([copy!.messageId]);
    await eventually(
      async () => (states(await statusOf(a, [sent.messageId])) as Record<string, string>)[bo.memberId] === "delivered",
    );
    const first = (await statusOf(a, [sent.messageId])) as TMessageStatus[];
    expect(first).toEqual([
      {
        messageId: sent.messageId,
        createdAt: sent.createdAt,
        expiresAt: expect.any(String),
        deliveredAt: null,
        recipientCount: 3,
        // The ones still waiting first.
        recipients: expect.arrayContaining([
          { memberId: cy.memberId, state: "queued", attempts: 0, lastDeliveredAt: null },
          { memberId: dy.memberId, state: "queued", attempts: 0, lastDeliveredAt: null },
          { memberId: bo.memberId, state: "delivered", attempts: 0, lastDeliveredAt: null },
        ]),
      },
    ]);
    expect(first[0]?.recipients.at(-1)?.memberId).toBe(bo.memberId);

    // Nobody else learns anything of it, not even a recipient: the same answer as for an unknown id.
    for (const other of [b, c]) expect(await statusOf(other, [sent.messageId])).toEqual([]);
    expect(await statusOf(a, ["0190a0a0-0000-7000-8000-000000000000"])).toEqual([]);

    // Dy is removed: its queue goes with it, and nothing is claimed for it.
    await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: dy.memberId });
    expect(states(await statusOf(a, [sent.messageId]))).toEqual({
      [bo.memberId]: "delivered",
      [cy.memberId]: "queued",
      [dy.memberId]: "gone",
    });
    // Once Cy acks too, the message is delivered as a whole.
    c.ack([sent.messageId]);
    await eventually(async () => ((await statusOf(a, [sent.messageId])) as TMessageStatus[])[0]?.deliveredAt !== null);
  });

  it("lists the recipients of a whole-mesh message: the members live when it was stored, not later ones", async () => {
    const { invite } = await meshWithInvite(db);
    const ana = await joinedPeer(db, invite.token, "ana");
    const bo = await joinedPeer(db, invite.token, "bo");
    const a = await TestClient.open(broker, ana);
    const sent = await a.send({ kind: "mesh" }, fakeCiphertext());
    if (sent.type !== "sent") throw new Error(JSON.stringify(sent));
    const late = await joinedPeer(db, invite.token, "late");
    const [status] = (await statusOf(a, [sent.messageId])) as TMessageStatus[];
    expect(status?.recipientCount).toBe(1);
    expect(status?.recipients.map((r) => [r.memberId, r.state])).toEqual([[bo.memberId, "queued"]]);
    expect(status?.recipients.map((r) => r.memberId)).not.toContain(late.memberId);
  });

  it("refuses a malformed question as any bad frame: too many ids, ids that are not ids, repeats", async () => {
    const { invite } = await meshWithInvite(db);
    const a = await TestClient.open(broker, await joinedPeer(db, invite.token, "ana"));
    const ids = (n: number) =>
      Array.from({ length: n }, (_, i) => `0190a0a0-0000-7000-8000-${String(i).padStart(12, "0")}`);
    for (const bad of [[], ids(21), ["' OR 1=1 --"], [ids(1)[0], ids(1)[0]]]) {
      const answer = await statusOf(a, bad);
      expect(answer, JSON.stringify(bad)).toMatchObject({ type: "error", code: "BAD_REQUEST" });
    }
    expect(await statusOf(a, ids(20))).toEqual([]);
  });
});
