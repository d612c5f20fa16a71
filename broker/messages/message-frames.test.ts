import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PROTOCOL_VERSION, type TMessageFrame, type TMessagePriority, type TTargetSpec } from "../protocol/frames";
import { outFrame, seqBefore, type FrameSource } from "./message-frames";

/** The frame as an object, the reference outFrame's text must equal once stringified. */
function frameOf(row: FrameSource, attempt: number): TMessageFrame {
  return {
    v: PROTOCOL_VERSION,
    type: "message",
    messageId: row.id,
    seq: row.seq,
    from: row.senderMemberId,
    to: row.targetSpec as TTargetSpec,
    priority: row.priority as TMessagePriority,
    createdAt: new Date(row.createdAtMs).toISOString(),
    ciphertext: typeof row.ciphertext === "string" ? row.ciphertext : row.ciphertext.toString("base64url"),
    attempt: Math.max(1, attempt),
  };
}

const base = {
  id: randomUUID(),
  seq: "9007199254740993",
  senderMemberId: randomUUID(),
  priority: "normal",
  createdAtMs: Date.UTC(2026, 10, 29, 1, 2, 3, 456),
};

describe("outFrame", () => {
  const cases = [
    {
      name: "a send's text to one peer",
      row: {
        ...base,
        targetSpec: { kind: "peer", memberId: randomUUID() },
        ciphertext: randomBytes(1024).toString("base64url"),
      },
      attempt: 1,
    },
    {
      name: "queue bytes to several peers, delivered again",
      row: {
        ...base,
        targetSpec: { kind: "peers", memberIds: [randomUUID(), randomUUID()] },
        ciphertext: randomBytes(33),
      },
      attempt: 3,
    },
    {
      name: "a whole-mesh message under an epoch, attempt 0 counted as 1",
      row: { ...base, priority: "urgent", targetSpec: { kind: "mesh", epoch: 4 }, ciphertext: randomBytes(1) },
      attempt: 0,
    },
  ];
  for (const { name, row, attempt } of cases) {
    it(`writes what JSON.stringify would: ${name}`, () => {
      const out = outFrame(row, attempt);
      expect(out.text).toBe(JSON.stringify(frameOf(row, attempt)));
      expect(JSON.parse(out.text as string)).toEqual(frameOf(row, attempt));
      expect(out.attempt).toBe(Math.max(1, attempt));
    });
  }
});

describe("seq order", () => {
  it("orders seqs as the numbers they write, across lengths, without BigInt", () => {
    const seqs = [
      "1",
      "9",
      "10",
      "99",
      "100",
      "101",
      "9007199254740993",
      "9007199254740992",
      "18446744073709551615",
      "12",
    ];
    const sorted = [...seqs].sort((a, b) => (seqBefore(a, b) ? -1 : seqBefore(b, a) ? 1 : 0));
    expect(sorted).toEqual([...seqs].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)));
    expect(seqBefore("7", "7")).toBe(false);
  });
});
