import { randomUUID } from "node:crypto";
import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { toBase64Url, utf8 } from "../../src/server/core/encoding";
import type { TTargetSpec } from "../protocol/frames";
import { decodePlaintext, encodeTextPlaintext, MAX_RECEIPT_IDS, openCiphertext, ZTextPlaintext } from "./mesh-crypto";
import { parseReceipt, ReceiptOutbox } from "./receipts";

function peer() {
  const box = nacl.box.keyPair();
  return { memberId: randomUUID(), box, boxPubkey: toBase64Url(box.publicKey) };
}

/** An outbox whose sends are recorded (and opened with the recipient's key, as its client would). */
function outbox(opts: { maxPending?: number } = {}) {
  const me = peer();
  const others = [peer(), peer()];
  const sends: { to: TTargetSpec; receipt: ReturnType<typeof parseReceipt>; priority: string }[] = [];
  const box = new ReceiptOutbox(
    {
      memberId: me.memberId,
      boxSecretKey: me.box.secretKey,
      boxKeysOf: async (ids) => {
        const found = others.filter((o) => ids.includes(o.memberId));
        if (found.length !== ids.length) throw new Error("no live member");
        return found.map((o) => ({ memberId: o.memberId, boxPubkey: o.boxPubkey }));
      },
      sendSealed: async (to, ciphertext, priority) => {
        const target = others.find((o) => to.kind === "peer" && o.memberId === to.memberId)!;
        const opened = openCiphertext(ciphertext, {
          meshKey: new Uint8Array(32),
          memberId: target.memberId,
          boxSecretKey: target.box.secretKey,
          senderBoxPubkey: toBase64Url(me.box.publicKey),
        });
        if (!opened.ok || !opened.direct) throw new Error("not a direct message for its recipient");
        sends.push({ to, priority, receipt: parseReceipt(me.memberId, opened.plaintext, new Date().toISOString()) });
        return { messageId: randomUUID(), createdAt: new Date().toISOString(), recipients: 1 };
      },
    },
    { delayMs: 10_000, ...opts },
  );
  return { me, others, sends, box };
}

describe("read receipts", () => {
  it("go to each sender once per batch, sealed to it alone, high priority, at most 100 ids each", async () => {
    const { me, others, sends, box } = outbox();
    const [bo, cy] = others as [ReturnType<typeof peer>, ReturnType<typeof peer>];
    const boIds = Array.from({ length: MAX_RECEIPT_IDS + 5 }, () => randomUUID());
    for (const id of boIds) box.add(bo.memberId, id);
    box.add(bo.memberId, boIds[0]!); // twice: once
    box.add(cy.memberId, "c1");
    box.add(me.memberId, "mine"); // our own messages need no receipt
    expect(box.size).toBe(MAX_RECEIPT_IDS + 6);
    await box.flush();
    const toBo = sends.filter((s) => s.to.kind === "peer" && s.to.memberId === bo.memberId);
    const toCy = sends.filter((s) => s.to.kind === "peer" && s.to.memberId === cy.memberId);
    expect(sends.every((s) => s.priority === "high")).toBe(true);
    expect(toBo.map((s) => s.receipt?.read.length)).toEqual([MAX_RECEIPT_IDS, 5]);
    // "c1" is not a message id: the reader refuses that receipt.
    expect(toCy.map((s) => s.receipt)).toEqual([undefined]);
    expect(toBo.flatMap((s) => s.receipt?.read ?? [])).toEqual(boIds);
    expect(box.size).toBe(0);
  });

  it("are bounded: past maxPending new ids are dropped and counted; a sender that left is skipped", async () => {
    const { sends, box } = outbox({ maxPending: 3 });
    const gone = randomUUID();
    for (let i = 0; i < 5; i++) box.add(gone, randomUUID());
    expect(box.size).toBe(3);
    expect(box.dropped).toBe(2);
    await box.flush(); // its box key cannot be found: nothing is sent, nothing throws
    expect(sends).toEqual([]);
  });

  it("are parsed strictly: ids, at most 100, a time never after the broker stored the receipt", () => {
    const from = randomUUID();
    const id = randomUUID();
    const json = (v: unknown) => utf8(JSON.stringify(v));
    const stored = "2026-12-02T10:00:00.000Z";
    expect(
      parseReceipt(from, json({ kind: "receipt", read: [id, id], at: "2026-12-02T09:59:00.000Z" }), stored),
    ).toEqual({ from, read: [id], at: "2026-12-02T09:59:00.000Z" });
    // A reader's clock ahead does not date the read after the receipt was stored.
    expect(parseReceipt(from, json({ kind: "receipt", read: [id], at: "2027-01-01T00:00:00.000Z" }), stored)?.at).toBe(
      stored,
    );
    for (const bad of [
      { kind: "receipt", read: [], at: stored },
      { kind: "receipt", read: ["../x"], at: stored },
      { kind: "receipt", read: Array.from({ length: 101 }, () => randomUUID()), at: stored },
      { kind: "receipt", read: [id], at: "yesterday" },
      { kind: "receipts", read: [id], at: stored },
    ])
      expect(parseReceipt(from, json(bad), stored), JSON.stringify(bad).slice(0, 60)).toBeUndefined();
    expect(decodePlaintext(json({ kind: "receipt", read: [id], at: stored }))).toEqual({
      kind: "other",
      name: "receipt",
    });
  });
});

describe("reply_to in the plaintext", () => {
  it("is carried when given, and a malformed one is dropped without losing the text", () => {
    const id = randomUUID();
    expect(decodePlaintext(encodeTextPlaintext("yes", new Date("2026-12-02T10:00:00Z"), id))).toEqual({
      kind: "text",
      value: { kind: "text", text: "yes", sentAt: "2026-12-02T10:00:00.000Z", replyTo: id },
    });
    expect(() => encodeTextPlaintext("x", new Date(), "not-an-id")).toThrow();
    const parsed = ZTextPlaintext.parse({ kind: "text", text: "hi", sentAt: "2026-12-02T10:00:00Z", replyTo: 42 });
    expect(parsed.text).toBe("hi");
    expect(parsed.replyTo).toBeUndefined();
  });
});
