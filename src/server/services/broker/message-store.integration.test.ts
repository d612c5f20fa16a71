// The queue's acknowledgement: an envelope is marked delivered when, and only when, its last queue row
// goes, whether the acks come one by one, in one batch, or at once from two connections (two nodes).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { joinedPeer, meshWithInvite } from "../../../../broker/test-support";
import { testDb } from "@/test/helpers";
import { ackMessages, insertMessages } from "./message-store";

const db = testDb();
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

async function envelopeTo(recipients: number) {
  const { invite } = await meshWithInvite(db);
  const sender = await joinedPeer(db, invite.token, "sender");
  const members = [];
  for (let i = 0; i < recipients; i++) members.push((await joinedPeer(db, invite.token, `r${i}`)).memberId);
  const id = randomUUID();
  await insertMessages(pool, [{ id, meshId: sender.meshId, senderMemberId: sender.memberId, targetSpec: { kind: "mesh" }, priority: "normal", ciphertext: Buffer.alloc(64, 1), recipients: members }], 60_000);
  return { id, members };
}

const deliveredAt = async (id: string) => (await db.messageEnvelope.findUniqueOrThrow({ where: { id } })).deliveredAt;

describe("acknowledgements", () => {
  it("marks the envelope delivered with its last queue row, not before; a repeated ack changes nothing", async () => {
    const { id, members } = await envelopeTo(3);
    expect(await ackMessages(pool, [{ memberId: members[0]!, envelopeId: id }])).toBe(1);
    expect(await deliveredAt(id)).toBeNull();
    expect(await ackMessages(pool, [{ memberId: members[0]!, envelopeId: id }])).toBe(0);
    expect(await deliveredAt(id)).toBeNull();
    // The last two in one batch, with a duplicate.
    expect(await ackMessages(pool, [members[1]!, members[2]!, members[2]!].map((memberId) => ({ memberId, envelopeId: id })))).toBe(2);
    expect(await deliveredAt(id)).not.toBeNull();
  });

  it("marks it delivered when the last two copies are acked at once on two connections", async () => {
    for (let round = 0; round < 5; round++) {
      const { id, members } = await envelopeTo(2);
      const counts = await Promise.all(members.map((memberId) => ackMessages(pool, [{ memberId, envelopeId: id }])));
      expect(counts).toEqual([1, 1]);
      expect(await deliveredAt(id)).not.toBeNull();
    }
  });

  it("handles a batch of many envelopes, some finished by it and some not", async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => envelopeTo(2)));
    // Every envelope's first copy; then the second copy of the even ones only.
    await ackMessages(pool, made.map((m) => ({ memberId: m.members[0]!, envelopeId: m.id })));
    expect(await ackMessages(pool, made.filter((_, i) => i % 2 === 0).map((m) => ({ memberId: m.members[1]!, envelopeId: m.id })))).toBe(3);
    const states = await Promise.all(made.map((m) => deliveredAt(m.id)));
    expect(states.map((d) => d !== null)).toEqual([true, false, true, false, true, false]);
  });
});
