import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ReceivedMessage } from "./client-types";
import { History, HISTORY_MAX_TEXT, retentionOf } from "./history";

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));
const home = () => {
  const h = mkdtempSync(path.join(os.tmpdir(), "mesh-history-"));
  homes.push(h);
  return h;
};
const me = randomUUID();
const [bo, cy] = [randomUUID(), randomUUID()];
const keepAll = { days: 30, maxMessages: 10_000 };
const DAY = 86_400_000;
const T0 = Date.parse("2026-12-01T10:00:00.000Z");

function received(over: Partial<ReceivedMessage> = {}): ReceivedMessage {
  return {
    messageId: randomUUID(),
    seq: "1",
    from: bo,
    fromName: "Bo",
    to: { kind: "peer", memberId: me },
    direct: true,
    priority: "normal",
    createdAt: new Date(T0).toISOString(),
    attempt: 1,
    text: "hello",
    sentAt: new Date(T0).toISOString(),
    replyTo: null,
    ...over,
  };
}

function sent(h: History, over: { to?: string[]; text?: string; at?: number } = {}) {
  const ids = over.to ?? [bo, cy];
  const id = randomUUID();
  h.recordSent({
    id,
    at: new Date(over.at ?? T0).toISOString(),
    from: me,
    fromName: "Ana",
    to: ids.length === 0 ? { kind: "mesh" } : { kind: "peers", memberIds: ids },
    toNames: Object.fromEntries(ids.map((i) => [i, i === bo ? "Bo" : "Cy"])),
    priority: "normal",
    text: over.text ?? "a question",
    recipients: Math.max(ids.length, 2),
  });
  return id;
}

describe("local history", () => {
  it("keeps what was sent and received, private to its owner, across instances (processes)", () => {
    const dir = home();
    const h = new History(dir, me, keepAll);
    const id = sent(h);
    const m = received({ replyTo: id, text: "an answer", createdAt: new Date(T0 + 1).toISOString() });
    h.recordReceived(m);
    h.recordReceived(m); // delivered twice: kept once
    const again = new History(dir, me, keepAll);
    expect(again.list().map((e) => [e.dir, e.text, e.replyTo])).toEqual([
      ["out", "a question", null],
      ["in", "an answer", id],
    ]);
    expect(statSync(h.file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(h.file)).mode & 0o777).toBe(0o700);
  });

  it("takes read receipts only from recipients, for messages this member sent, and states only move forward", () => {
    const h = new History(home(), me, keepAll);
    const direct = sent(h, { to: [bo] });
    const toAll = sent(h, { to: [] });
    const theirs = received();
    h.recordReceived(theirs);
    const at = new Date(T0 + 5_000).toISOString();
    // Cy was not a recipient of the direct message; a receipt about a message received is not ours to take.
    expect(h.recordReceipt({ from: cy, read: [direct, toAll, theirs.messageId, randomUUID()], at })).toEqual([toAll]);
    expect(h.recordReceipt({ from: bo, read: [direct], at })).toEqual([direct]);
    expect(h.recordReceipt({ from: bo, read: [direct], at })).toEqual([]); // already read
    // The broker's older word (delivered) does not take "read" back.
    h.recordDelivery([
      {
        messageId: direct,
        createdAt: new Date(T0).toISOString(),
        expiresAt: new Date(T0 + DAY).toISOString(),
        deliveredAt: new Date(T0 + 1_000).toISOString(),
        recipientCount: 1,
        recipients: [{ memberId: bo, state: "delivered", attempts: 1, lastDeliveredAt: null }],
      },
    ]);
    const e = new History(path.dirname(path.dirname(h.file)), me, keepAll).get(direct)!;
    expect(e.receipts?.[bo]).toMatchObject({ state: "read", readAt: at });
    expect(e.deliveredAt).toBe(new Date(T0 + 1_000).toISOString());
    expect(new History(path.dirname(path.dirname(h.file)), me, keepAll).get(toAll)?.receipts).toEqual({
      [cy]: { state: "read", deliveredAt: at, readAt: at },
    });
  });

  it("records each state the broker reports once, and a read of a received message once", () => {
    const h = new History(home(), me, keepAll);
    const id = sent(h, { to: [bo, cy] });
    const status = (state: "queued" | "delivered", attempts = 0) => ({
      messageId: id,
      createdAt: new Date(T0).toISOString(),
      expiresAt: new Date(T0 + DAY).toISOString(),
      deliveredAt: null,
      recipientCount: 2,
      recipients: [
        { memberId: bo, state, attempts, lastDeliveredAt: null },
        { memberId: cy, state: "queued" as const, attempts: 0, lastDeliveredAt: null },
      ],
    });
    const lines = () => readFileSync(h.file, "utf8").trim().split("\n").length;
    const before = lines();
    h.recordDelivery([status("queued")]);
    expect(lines()).toBe(before); // every copy starts queued: nothing to record
    const after = lines();
    h.recordDelivery([status("queued", 2)]); // handed out again: still not delivered, nothing new
    expect(lines()).toBe(after);
    h.recordDelivery([status("delivered")]);
    expect(h.get(id)?.receipts?.[bo]?.state).toBe("delivered");
    const m = received();
    h.recordReceived(m);
    h.recordRead([m.messageId]);
    h.recordRead([m.messageId]);
    expect(lines()).toBe(after + 3);
    expect(h.get(m.messageId)?.readAt).toBeDefined();
  });

  it("finds messages by peer, by text, and the newest `limit`", () => {
    const h = new History(home(), me, keepAll);
    sent(h, { to: [bo], text: "deploy the fix?", at: T0 });
    sent(h, { to: [cy], text: "lunch?", at: T0 + 1 });
    h.recordReceived(received({ text: "Deploy is done", createdAt: new Date(T0 + 2).toISOString() }));
    h.recordReceived(
      received({ from: cy, fromName: "Cy", text: "yes", createdAt: new Date(T0 + 3).toISOString(), direct: false }),
    );
    expect(h.list({ peer: "bo" }).map((e) => e.text)).toEqual(["deploy the fix?", "Deploy is done"]);
    expect(h.list({ peer: cy.slice(0, 8) }).map((e) => e.text)).toEqual(["lunch?", "yes"]);
    expect(h.list({ search: "DEPLOY" }).map((e) => e.text)).toEqual(["deploy the fix?", "Deploy is done"]);
    expect(h.list({ limit: 2 }).map((e) => e.text)).toEqual(["Deploy is done", "yes"]);
    expect(h.list({ peer: "nobody" })).toEqual([]);
  });

  it("applies the retention: days, count, and a bounded file whatever is appended", () => {
    let now = T0;
    const dir = home();
    const h = new History(dir, me, { days: 2, maxMessages: 5 }, () => now);
    for (let i = 0; i < 8; i++) sent(h, { text: `m${i}`, at: T0 + i });
    h.compact();
    expect(h.list().map((e) => e.text)).toEqual(["m3", "m4", "m5", "m6", "m7"]);
    // Three days later the old ones go, by themselves, on the next write.
    now = T0 + 3 * DAY;
    const fresh = sent(h, { text: "new", at: now });
    expect(new History(dir, me, { days: 2, maxMessages: 5 }, () => now).list().map((e) => e.id)).toEqual([fresh]);
    // Receipts append lines; the file is compacted before it holds twice the count (+1,000) of lines.
    for (let i = 0; i < 1_200; i++) h.recordReceived(received({ createdAt: new Date(now).toISOString() }));
    const lines = readFileSync(h.file, "utf8").trim().split("\n").length;
    expect(lines).toBeLessThanOrEqual(2 * 5 + 1_000);
    h.compact();
    expect(new History(dir, me, { days: 2, maxMessages: 5 }, () => now).list({ limit: 100 }).length).toBe(5);
  });

  it("checks cheaply in a process that only sends (the age of the first message), and lists within the retention", () => {
    let now = T0;
    const dir = home();
    sent(new History(dir, me, { days: 2, maxMessages: 100 }, () => now), { text: "old", at: T0 });
    sent(new History(dir, me, { days: 2, maxMessages: 100 }, () => now), { text: "older news", at: T0 + 1 });
    now = T0 + 3 * DAY;
    const sender = new History(dir, me, { days: 2, maxMessages: 100 }, () => now); // never reads the file
    sent(sender, { text: "new", at: now });
    const texts = () =>
      readFileSync(sender.file, "utf8")
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { text: string }).text);
    expect(texts()).toEqual(["new"]);
    sent(sender, { text: "newer", at: now + 1 });
    // A smaller count applies to what is listed at once, and compacts.
    expect(new History(dir, me, { days: 2, maxMessages: 1 }, () => now).list().map((e) => e.text)).toEqual(["newer"]);
    expect(texts()).toEqual(["newer"]);
  });

  it("stays under its byte bound with long texts, cut to HISTORY_MAX_TEXT", () => {
    const h = new History(home(), me, { days: 30, maxMessages: 1_000, maxBytes: 400_000 });
    for (let i = 0; i < 20; i++) h.recordReceived(received({ text: "x".repeat(HISTORY_MAX_TEXT + 10) }));
    expect(statSync(h.file).size).toBeLessThanOrEqual(400_000);
    const kept = h.list({ limit: 1_000 });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept[0]).toMatchObject({ truncated: true });
    expect(kept[0]?.text.length).toBe(HISTORY_MAX_TEXT);
  });

  it("keeps what another process appended before a compaction, and skips a torn line", () => {
    const dir = home();
    const a = new History(dir, me, { days: 30, maxMessages: 3 });
    const b = new History(dir, me, { days: 30, maxMessages: 3 });
    for (let i = 0; i < 3; i++) sent(a, { text: `a${i}`, at: T0 + i });
    appendFileSync(a.file, '{"r":"m","id":"torn'); // a crash mid-line
    appendFileSync(a.file, "\n");
    const fromB = sent(b, { text: "b", at: T0 + 10 });
    a.compact();
    expect(new History(dir, me, { days: 30, maxMessages: 3 }).list().map((e) => e.text)).toEqual(["a1", "a2", "b"]);
    expect(a.get(fromB)?.text).toBe("b");
  });

  it("keeps nothing with a retention of 0, and deletes what was kept", () => {
    const dir = home();
    const h = new History(dir, me, keepAll);
    sent(h);
    const off = new History(dir, me, { days: 0, maxMessages: 10 });
    expect(existsSync(off.file)).toBe(false);
    sent(off);
    expect(off.list()).toEqual([]);
    expect(existsSync(off.file)).toBe(false);
  });

  it("reads the retention from the environment, refusing a bad value by name", () => {
    expect(retentionOf({})).toEqual({ days: 30, maxMessages: 10_000 });
    expect(retentionOf({ MESH_HISTORY_DAYS: "7", MESH_HISTORY_MAX_MESSAGES: "0" })).toEqual({
      days: 7,
      maxMessages: 0,
    });
    expect(() => retentionOf({ MESH_HISTORY_DAYS: "-1" })).toThrow(/MESH_HISTORY_DAYS/);
    expect(() => retentionOf({ MESH_HISTORY_MAX_MESSAGES: "lots" })).toThrow(/MESH_HISTORY_MAX_MESSAGES/);
  });

  it("refuses a member id that is not one (no path out of the folder)", () => {
    expect(() => new History(home(), "../../etc", keepAll)).toThrow(/bad member id/);
  });
});
