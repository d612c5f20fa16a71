// The queue's acknowledgement: an envelope is marked delivered when, and only when, its last queue row
// goes, whether the acks come one by one, in one batch, or at once from two connections (two nodes).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { joinedPeer, meshWithInvite } from "../test-support";
import { testDb } from "@/test/helpers";
import { ackMessages, insertMessages, overdueFor } from "./message-store";

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
  await insertMessages(
    pool,
    [
      {
        id,
        meshId: sender.meshId,
        senderMemberId: sender.memberId,
        targetSpec: { kind: "mesh" },
        priority: "normal",
        ciphertext: Buffer.alloc(64, 1),
        recipients: members,
      },
    ],
    60_000,
  );
  return { id, members };
}

/** The envelope's delivery time (its row in message_deliveries), null while a copy waits; the envelope must exist. */
const deliveredAt = async (id: string) => {
  await db.messageEnvelope.findUniqueOrThrow({ where: { id } });
  return (await db.messageDelivery.findUnique({ where: { envelopeId: id } }))?.deliveredAt ?? null;
};

describe("acknowledgements", () => {
  it("marks the envelope delivered with its last queue row, not before; a repeated ack changes nothing", async () => {
    const { id, members } = await envelopeTo(3);
    expect(await ackMessages(pool, [{ memberId: members[0]!, envelopeId: id }])).toBe(1);
    expect(await deliveredAt(id)).toBeNull();
    expect(await ackMessages(pool, [{ memberId: members[0]!, envelopeId: id }])).toBe(0);
    expect(await deliveredAt(id)).toBeNull();
    // The last two in one batch, with a duplicate.
    expect(
      await ackMessages(
        pool,
        [members[1]!, members[2]!, members[2]!].map((memberId) => ({ memberId, envelopeId: id })),
      ),
    ).toBe(2);
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

  it("writes one delivery row, never the envelope again, and the row goes when the envelope is deleted", async () => {
    const { id, members } = await envelopeTo(1);
    const before = await pool.query<{ ctid: string }>("SELECT ctid::text FROM message_envelopes WHERE id = $1", [id]);
    await ackMessages(pool, [{ memberId: members[0]!, envelopeId: id }]);
    expect(await deliveredAt(id)).not.toBeNull();
    // The same tuple: the envelope was locked, not updated (an update would have moved or versioned it).
    const after = await pool.query<{ ctid: string; xmax: string }>(
      "SELECT ctid::text, xmax::text FROM message_envelopes WHERE id = $1",
      [id],
    );
    expect(after.rows[0]!.ctid).toBe(before.rows[0]!.ctid);
    expect(await db.messageDelivery.count({ where: { envelopeId: id } })).toBe(1);
    await pool.query("DELETE FROM message_envelopes WHERE id = $1", [id]);
    expect(await db.messageDelivery.count({ where: { envelopeId: id } })).toBe(0);
  });

  it("handles a batch of many envelopes, some finished by it and some not", async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => envelopeTo(2)));
    // Every envelope's first copy; then the second copy of the even ones only.
    await ackMessages(
      pool,
      made.map((m) => ({ memberId: m.members[0]!, envelopeId: m.id })),
    );
    expect(
      await ackMessages(
        pool,
        made.filter((_, i) => i % 2 === 0).map((m) => ({ memberId: m.members[1]!, envelopeId: m.id })),
      ),
    ).toBe(3);
    const states = await Promise.all(made.map((m) => deliveredAt(m.id)));
    expect(states.map((d) => d !== null)).toEqual([true, false, true, false, true, false]);
  });

  it("commits without waiting for the disk, while a store waits for it (a lost ack is a redelivery, a lost store is not)", async () => {
    const { id, members } = await envelopeTo(1);
    // Each call inside a transaction of its own, on one connection: the setting its commit would use.
    const client = await pool.connect();
    const commitMode = async (call: () => Promise<unknown>) => {
      await client.query("BEGIN");
      try {
        await call();
        return (await client.query<{ synchronous_commit: string }>("SHOW synchronous_commit")).rows[0]!
          .synchronous_commit;
      } finally {
        await client.query("COMMIT");
      }
    };
    try {
      const { invite } = await meshWithInvite(db);
      const [from, to] = [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
      const message = {
        id: randomUUID(),
        meshId: from.meshId,
        senderMemberId: from.memberId,
        targetSpec: { kind: "peer", memberId: to.memberId },
        priority: "normal",
        ciphertext: Buffer.alloc(8, 1),
        recipients: [to.memberId],
      };
      expect(await commitMode(() => insertMessages(client, [message], 60_000))).toBe("on");
      expect(await commitMode(() => ackMessages(client, [{ memberId: members[0]!, envelopeId: id }]))).toBe("off");
      // Outside the ack's transaction the connection is as it was.
      expect(
        (await client.query<{ synchronous_commit: string }>("SHOW synchronous_commit")).rows[0]!.synchronous_commit,
      ).toBe("on");
      expect(await deliveredAt(id)).not.toBeNull();
    } finally {
      client.release();
    }
  });
});

describe("storing a batch", () => {
  it("keeps the batch's order in seq, stores each ciphertext and target whole, and gives back the stored time", async () => {
    const { invite } = await meshWithInvite(db);
    const peers: Awaited<ReturnType<typeof joinedPeer>>[] = [];
    for (let i = 0; i < 4; i++) peers.push(await joinedPeer(db, invite.token, `p${i}`));
    // Senders, targets and sizes interleaved (the store sends repeated values once, with indexes).
    const items = Array.from({ length: 300 }, (_, i) => {
      const from = peers[i % 4]!;
      const to = peers[(i * 7 + 1) % 4]!.memberId === from.memberId ? peers[(i + 1) % 4]! : peers[(i * 7 + 1) % 4]!;
      return {
        id: randomUUID(),
        meshId: from.meshId,
        senderMemberId: from.memberId,
        targetSpec: { kind: "peer", memberId: to.memberId },
        priority: i % 5 === 0 ? "high" : "normal",
        ciphertext: Buffer.alloc(1 + ((i * 37) % 900), i % 251),
        recipients: [to.memberId],
        clientId: `c${i}`,
      };
    });
    const stored = await insertMessages(pool, items, 60_000);
    const seqs = stored.map((s) => BigInt(s!.seq));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]! > seqs[i - 1]!).toBe(true);
    const rows = await pool.query<{
      id: string;
      seq: string;
      ciphertext: Buffer;
      target_spec: unknown;
      priority: string;
      created_ms: number;
      recipient: string;
    }>(
      `SELECT e.id, e.seq::text AS seq, e.ciphertext, e.target_spec, e.priority, (extract(epoch FROM e.created_at) * 1000)::float8 AS created_ms, r.member_id AS recipient
       FROM message_envelopes e JOIN message_recipients r ON r.envelope_id = e.id AND r.seq = e.seq WHERE e.id = ANY($1::uuid[])`,
      [items.map((m) => m.id)],
    );
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    items.forEach((item, i) => {
      const row = byId.get(item.id)!;
      expect(row.seq).toBe(stored[i]!.seq);
      expect(row.ciphertext.equals(item.ciphertext)).toBe(true);
      expect(row.target_spec).toEqual(item.targetSpec);
      expect(row.priority).toBe(item.priority);
      expect(row.recipient).toBe(item.recipients[0]);
      expect(row.created_ms).toBe(stored[i]!.createdAtMs);
    });
    const audits = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM audit_events WHERE event_type = 'message_sent' AND metadata->>'messageId' = ANY($1::text[])`,
      [items.map((m) => m.id)],
    );
    expect(Number(audits.rows[0]!.n)).toBe(300);
    // Sent again (same client ids, new envelope ids): the first envelopes come back, nothing new is stored.
    const again = await insertMessages(
      pool,
      items.slice(0, 10).map((m) => ({ ...m, id: randomUUID() })),
      60_000,
    );
    expect(again.map((s) => [s!.id, s!.duplicate])).toEqual(items.slice(0, 10).map((m) => [m.id, true]));
  });
});

describe("prepared calls", () => {
  it("parses and plans the store and ack calls once per connection, then runs the same statement again", async () => {
    const { invite } = await meshWithInvite(db);
    const [from, to] = [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
    const message = () => ({
      id: randomUUID(),
      meshId: from.meshId,
      senderMemberId: from.memberId,
      targetSpec: { kind: "peer", memberId: to.memberId },
      priority: "normal" as const,
      ciphertext: Buffer.alloc(16, 2),
      recipients: [to.memberId],
    });
    const client = await pool.connect();
    try {
      const runs = async () =>
        (
          await client.query<{ name: string; runs: number }>(
            "SELECT name, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements WHERE name IN ('broker_store_messages', 'broker_ack_messages') ORDER BY name",
          )
        ).rows;
      // The pool's connection may have run them for the tests before.
      const before = new Map((await runs()).map((r) => [r.name, r.runs]));
      for (let i = 0; i < 3; i++) {
        const m = message();
        await insertMessages(client, [m], 60_000);
        expect(await ackMessages(client, [{ memberId: to.memberId, envelopeId: m.id }])).toBe(1);
      }
      // One statement each, run three more times: the connection parsed each call's text once.
      expect((await runs()).map((r) => ({ name: r.name, runs: r.runs - (before.get(r.name) ?? 0) }))).toEqual([
        { name: "broker_ack_messages", runs: 3 },
        { name: "broker_store_messages", runs: 3 },
      ]);
    } finally {
      client.release();
    }
  });
});

describe("overdue messages", () => {
  it("hands out the unacknowledged messages older than the timeout, oldest first, for the members asked about", async () => {
    const { invite } = await meshWithInvite(db);
    const a = await joinedPeer(db, invite.token, "a");
    const b = await joinedPeer(db, invite.token, "b");
    const c = await joinedPeer(db, invite.token, "c");
    const message = (to: string) => ({
      id: randomUUID(),
      meshId: a.meshId,
      senderMemberId: a.memberId,
      targetSpec: { kind: "peer", memberId: to },
      priority: "normal",
      ciphertext: Buffer.from([1, 2, 3]),
      recipients: [to],
    });
    const old = [message(b.memberId), message(c.memberId), message(b.memberId), message(b.memberId)];
    await insertMessages(pool, old, 60_000);
    await pool.query(
      `UPDATE message_envelopes SET created_at = created_at - interval '2 minutes' WHERE id = ANY($1::uuid[])`,
      [old.map((m) => m.id)],
    );
    const fresh = [message(b.memberId)];
    await insertMessages(pool, fresh, 60_000);
    await ackMessages(pool, [{ memberId: b.memberId, envelopeId: old[2]!.id }]);
    // Twice: the second pass walks the index after the first marked the acknowledged row's entry dead.
    for (let pass = 0; pass < 2; pass++) {
      const due = await overdueFor(pool, [b.memberId, c.memberId], 30_000, 10);
      expect(due.map((m) => [m.id, m.memberId])).toEqual([
        [old[0]!.id, b.memberId],
        [old[1]!.id, c.memberId],
        [old[3]!.id, b.memberId],
      ]);
      expect(due[0]).toMatchObject({
        senderMemberId: a.memberId,
        targetSpec: { kind: "peer", memberId: b.memberId },
        priority: "normal",
        attempts: 0,
      });
      expect(due[0]!.ciphertext.equals(Buffer.from([1, 2, 3]))).toBe(true);
    }
    expect((await overdueFor(pool, [b.memberId, c.memberId], 30_000, 2)).map((m) => m.id)).toEqual([
      old[0]!.id,
      old[1]!.id,
    ]);
    expect(await overdueFor(pool, [c.memberId], 300_000, 10)).toEqual([]);
  });
});
