import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64Url, utf8 } from "@/server/core/encoding";
import { testDb } from "@/test/helpers";
import {
  eventually,
  fakeCiphertext,
  metric,
  joinedPeer,
  meshWithInvite,
  startBroker,
  TestClient,
  type TestBroker,
} from "./test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, { MESSAGE_ACK_TIMEOUT_MS: "400", MESSAGE_TTL_MS: "60000" });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

async function meshOf(n: number) {
  const { invite } = await meshWithInvite(db);
  const peers = [];
  for (let i = 0; i < n; i++) peers.push(await joinedPeer(db, invite.token, `peer ${i}`));
  return peers;
}

const queueRows = (envelopeId: string) => db.messageRecipient.count({ where: { envelopeId } });

describe("messages", () => {
  it("stores a message before the sender's `sent`, delivers it at once and forgets it after the ack", async () => {
    const [a, b] = await meshOf(2);
    const ca = await TestClient.open(broker, a!);
    const cb = await TestClient.open(broker, b!);
    const ciphertext = fakeCiphertext(1024);
    const sent = await ca.send({ kind: "peer", memberId: b!.memberId }, ciphertext, "high");
    if (sent.type !== "sent") throw new Error(`refused: ${JSON.stringify(sent)}`);
    expect(sent.recipients).toBe(1);
    // Stored by the time the sender hears about it.
    const row = await db.messageEnvelope.findUnique({ where: { id: sent.messageId } });
    expect(row).toMatchObject({ senderMemberId: a!.memberId, priority: "high", byteSize: 1024 });
    expect(await db.messageDelivery.count({ where: { envelopeId: sent.messageId } })).toBe(0);
    expect(row?.targetSpec).toEqual({ kind: "peer", memberId: b!.memberId });
    expect(await queueRows(sent.messageId)).toBe(1);
    expect(
      await db.auditEvent.count({
        where: { eventType: "message_sent", metadata: { path: ["messageId"], equals: sent.messageId } },
      }),
    ).toBe(1);

    const [msg] = await cb.waitMessages(1);
    expect(msg).toMatchObject({
      messageId: sent.messageId,
      from: a!.memberId,
      ciphertext,
      priority: "high",
      attempt: 1,
      to: { kind: "peer", memberId: b!.memberId },
    });
    cb.ack([sent.messageId]);
    await eventually(async () => (await queueRows(sent.messageId)) === 0);
    await eventually(
      async () => (await db.messageDelivery.findUnique({ where: { envelopeId: sent.messageId } }))?.deliveredAt != null,
    );
    await ca.close();
    await cb.close();
  });

  it("sends to the whole mesh (not the sender) and to several peers, one audit event per message", async () => {
    const [a, b, c, d] = await meshOf(4);
    const clients = await Promise.all([a, b, c, d].map((p) => TestClient.open(broker, p!)));
    const [ca, cb, cc, cd] = clients as [TestClient, TestClient, TestClient, TestClient];
    const all = await ca.send({ kind: "mesh" }, fakeCiphertext());
    expect(all).toMatchObject({ type: "sent", recipients: 3 });
    const some = await ca.send({ kind: "peers", memberIds: [b!.memberId, c!.memberId] }, fakeCiphertext());
    expect(some).toMatchObject({ type: "sent", recipients: 2 });
    expect((await cb.waitMessages(2)).length).toBe(2);
    expect((await cc.waitMessages(2)).length).toBe(2);
    expect((await cd.waitMessages(1)).length).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(ca.messages()).toHaveLength(0);
    expect(cd.messages()).toHaveLength(1);
    expect(await db.auditEvent.count({ where: { meshId: a!.meshId, eventType: "message_sent" } })).toBe(2);
    await Promise.all(clients.map((c) => c.close()));
  });

  it("refuses a message to someone who is not a member, and stores nothing", async () => {
    const [a] = await meshOf(1);
    const [stranger] = await meshOf(1);
    const ca = await TestClient.open(broker, a!);
    const before = await db.messageEnvelope.count({ where: { meshId: a!.meshId } });
    const refused = await ca.send({ kind: "peer", memberId: stranger!.memberId }, fakeCiphertext());
    expect(refused).toMatchObject({ type: "error", code: "NOT_FOUND" });
    ca.raw({ v: 1, type: "send", id: "x", to: { kind: "mesh" }, ciphertext: "not base64url!" });
    expect(await ca.next((f) => f.type === "error" && f.id === "x")).toMatchObject({ code: "BAD_REQUEST" });
    expect(await db.messageEnvelope.count({ where: { meshId: a!.meshId } })).toBe(before);
    await ca.close();
  });

  it("queues for an offline peer and delivers in order when it connects", async () => {
    const [a, b] = await meshOf(2);
    const ca = await TestClient.open(broker, a!);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const sent = await ca.send({ kind: "peer", memberId: b!.memberId }, fakeCiphertext(32 + i));
      if (sent.type === "sent") ids.push(sent.messageId);
    }
    expect(ids).toHaveLength(12);
    const cb = await TestClient.open(broker, b!);
    expect(cb.frames[0]).toMatchObject({ type: "welcome", queued: 12 });
    const got = await cb.waitMessages(12);
    expect(got.map((m) => m.messageId)).toEqual(ids);
    // Live messages sent right after still come after the queue.
    const late = await ca.send({ kind: "peer", memberId: b!.memberId }, fakeCiphertext());
    const all = await cb.waitMessages(13);
    expect(all.at(-1)?.messageId).toBe(late.type === "sent" ? late.messageId : "?");
    await ca.close();
    await cb.close();
  });

  it("delivers again what was not acked: after a reconnect, and on the same connection after the ack timeout", async () => {
    const [a, b] = await meshOf(2);
    const ca = await TestClient.open(broker, a!);
    const cb = await TestClient.open(broker, b!);
    const sent = await ca.send({ kind: "peer", memberId: b!.memberId }, fakeCiphertext());
    if (sent.type !== "sent") throw new Error("not sent");
    await cb.waitMessages(1);
    // The recipient dies without acking.
    cb.ws.terminate();
    const again = await TestClient.open(broker, b!);
    expect(again.frames[0]).toMatchObject({ type: "welcome", queued: 1 });
    const [redelivered] = await again.waitMessages(1);
    expect(redelivered?.messageId).toBe(sent.messageId);
    // Still no ack: the same connection gets it again once MESSAGE_ACK_TIMEOUT_MS has passed.
    const [, third] = await again.waitMessages(2, 5_000);
    expect(third).toMatchObject({ messageId: sent.messageId });
    expect(third!.attempt).toBeGreaterThan(redelivered!.attempt);
    again.ack([sent.messageId]);
    await eventually(async () => (await queueRows(sent.messageId)) === 0);
    await ca.close();
    await again.close();
  });

  it("stores the acks that arrive within MESSAGE_ACK_BATCH_WAIT_MS of the first in one call", async () => {
    const slow = await startBroker(db, { MESSAGE_ACK_BATCH_WAIT_MS: "1000" });
    const ackBatches = async () => ({
      calls: await metric(slow, /^broker_ack_batch_acks_count (\d+)/m),
      acks: await metric(slow, /^broker_ack_batch_acks_sum (\d+)/m),
    });
    try {
      const [a, b, c] = await meshOf(3);
      const [ca, cb, cc] = await Promise.all([a, b, c].map((p) => TestClient.open(slow, p!)));
      const sent = await ca!.send({ kind: "peers", memberIds: [b!.memberId, c!.memberId] }, fakeCiphertext());
      if (sent.type !== "sent") throw new Error("not sent");
      await Promise.all([cb!.waitMessages(1), cc!.waitMessages(1)]);
      const before = await ackBatches();
      // Two recipients on two connections, 100 ms apart: one batch, stored once the first has waited.
      cb!.ack([sent.messageId]);
      await new Promise((r) => setTimeout(r, 100));
      cc!.ack([sent.messageId]);
      await new Promise((r) => setTimeout(r, 50));
      expect(await queueRows(sent.messageId)).toBe(2);
      await eventually(async () => (await queueRows(sent.messageId)) === 0);
      expect(await ackBatches()).toEqual({ calls: before.calls + 1, acks: before.acks + 2 });
      await eventually(async () => (await db.messageDelivery.count({ where: { envelopeId: sent.messageId } })) === 1);
      await Promise.all([ca, cb, cc].map((x) => x!.close()));
    } finally {
      await slow.close();
    }
  });

  it("never stores or logs the plaintext: only the client's ciphertext reaches the tables", async () => {
    const [a, b] = await meshOf(2);
    const ca = await TestClient.open(broker, a!);
    const plaintext = `secret plan ${Math.random().toString(36).slice(2)}`;
    const key = nacl.randomBytes(32);
    const nonce = nacl.randomBytes(24);
    const box = nacl.secretbox(utf8(plaintext), nonce, key);
    const ciphertext = toBase64Url(new Uint8Array([1, ...nonce, ...box]));
    expect(await ca.send({ kind: "peer", memberId: b!.memberId }, ciphertext)).toMatchObject({ type: "sent" });
    const tables = await db.$queryRaw<
      { tablename: string }[]
    >`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`;
    const needles = [plaintext, Buffer.from(plaintext).toString("hex"), Buffer.from(plaintext).toString("base64")];
    for (const { tablename } of tables) {
      const rows = await db.$queryRawUnsafe<{ t: string }[]>(`SELECT row_to_json(x)::text AS t FROM "${tablename}" x`);
      for (const row of rows)
        for (const needle of needles) expect(row.t.includes(needle), `${tablename} holds the plaintext`).toBe(false);
    }
    await ca.close();
  });
});

describe("time to live", () => {
  it("a sweep drops messages past their time to live and counts them", async () => {
    const short = await startBroker(db, { MESSAGE_TTL_MS: "1000", MESSAGE_SWEEP_INTERVAL_MS: "200" });
    try {
      const [a, b] = await meshOf(2);
      const ca = await TestClient.open(short, a!);
      const sent = await ca.send({ kind: "peer", memberId: b!.memberId }, fakeCiphertext());
      if (sent.type !== "sent") throw new Error("not sent");
      expect(await queueRows(sent.messageId)).toBe(1);
      await eventually(async () => (await db.messageEnvelope.count({ where: { id: sent.messageId } })) === 0, 8_000);
      expect(await queueRows(sent.messageId)).toBe(0);
      const metrics = await (await fetch(`${short.http}/metrics`)).text();
      expect(metrics).toMatch(/^broker_messages_expired_total [1-9]/m);
      // B connects later and finds nothing.
      const cb = await TestClient.open(short, b!);
      expect(cb.frames[0]).toMatchObject({ type: "welcome", queued: 0 });
      await ca.close();
      await cb.close();
    } finally {
      await short.close();
    }
  });
});

describe("idempotent sends", () => {
  it("stores a resend of the same send (same frame id, after a reconnect) once: the same messageId, one delivery", async () => {
    const [a, b] = await meshOf(2);
    const cb = await TestClient.open(broker, b!);
    const frame = {
      v: 1,
      type: "send",
      id: "client-msg-1",
      to: { kind: "peer", memberId: b!.memberId },
      ciphertext: fakeCiphertext(64),
    };
    const first = await TestClient.open(broker, a!);
    first.raw(frame);
    const sent1 = await first.next((f) => f.type === "sent" && f.id === "client-msg-1");
    await first.close();
    // The client connects again and sends what had no answer for it (or the answer was lost): the same frame.
    const again = await TestClient.open(broker, a!);
    again.raw(frame);
    const sent2 = await again.next((f) => f.type === "sent" && f.id === "client-msg-1");
    expect(sent2).toMatchObject({ messageId: (sent1 as { messageId: string }).messageId });
    // Twice in one connection, too.
    again.raw(frame);
    expect(await again.next((f) => f.type === "sent" && f.id === "client-msg-1")).toMatchObject({
      messageId: (sent1 as { messageId: string }).messageId,
    });
    const messageId = (sent1 as { messageId: string }).messageId;
    await cb.waitMessages(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(cb.messages().filter((m) => m.messageId === messageId)).toHaveLength(1);
    expect(await db.messageEnvelope.count({ where: { senderMemberId: a!.memberId } })).toBe(1);
    expect(await db.auditEvent.count({ where: { actorMemberId: a!.memberId, eventType: "message_sent" } })).toBe(1);
    // Another sender may use the same id: ids are the sender's own.
    const cb2 = await TestClient.open(broker, b!);
    cb2.raw({ ...frame, to: { kind: "peer", memberId: a!.memberId } });
    const other = await cb2.next((f) => f.type === "sent" && f.id === "client-msg-1");
    expect((other as { messageId: string }).messageId).not.toBe(messageId);
    await Promise.all([again.close(), cb.close(), cb2.close()]);
  });
});

describe("priorities gated by status", () => {
  it("holds normal and low for a working or dnd recipient (stored and sent), delivers urgent and high at once, and releases the held on idle or after PRIORITY_HOLD_MAX_MS", async () => {
    const gated = await startBroker(db, { MESSAGE_ACK_TIMEOUT_MS: "300", PRIORITY_HOLD_MAX_MS: "1500" });
    try {
      const [a, b] = await meshOf(2);
      const ca = await TestClient.open(gated, a!);
      const cb = await TestClient.open(gated, b!);
      const setStatus = async (status: string) => {
        cb.raw({ v: 1, type: "set_status", id: `s-${status}`, status });
        await cb.next((f) => f.type === "status" && f.memberId === b!.memberId && f.status === status);
      };
      const to = { kind: "peer" as const, memberId: b!.memberId };
      const got = (id: string) => cb.messages().some((m) => m.messageId === id);
      const idOf = (f: unknown) => (f as { messageId: string }).messageId;

      await setStatus("working");
      const normal = idOf(await ca.send(to, fakeCiphertext(32), "normal"));
      const urgent = idOf(await ca.send(to, fakeCiphertext(32), "urgent"));
      const high = idOf(await ca.send(to, fakeCiphertext(32), "high"));
      await eventually(async () => got(urgent) && got(high));
      await new Promise((r) => setTimeout(r, 500));
      expect(got(normal)).toBe(false);
      // Held, not lost: stored and queued for B.
      expect(await queueRows(normal)).toBe(1);

      // Idle: what was held goes out now.
      await setStatus("idle");
      await eventually(async () => got(normal), 3_000);

      // Do not disturb: a low message waits until the hold's end (1.5 s here), then is delivered anyway.
      await setStatus("dnd");
      const low = idOf(await ca.send(to, fakeCiphertext(32), "low"));
      const sentAt = Date.now();
      await new Promise((r) => setTimeout(r, 700));
      expect(got(low)).toBe(false);
      await eventually(async () => got(low), 5_000);
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1_400);
      await Promise.all([ca.close(), cb.close()]);
    } finally {
      await gated.close();
    }
  }, 30_000);
});
