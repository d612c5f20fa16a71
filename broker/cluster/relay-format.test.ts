import { describe, expect, it } from "vitest";
import { decodeRelay, encodeRelay, RELAY_CHUNK_BYTES, type PreparedMessage } from "./relay-format";

const message = (i: number, bytes = 100): PreparedMessage => ({
  id: `id-${i}`,
  meshId: `mesh-${i % 3}`,
  priority: i % 2 ? "high" : "normal",
  createdAtMs: 1_700_000_000_000 + i,
  recipients: Array.from({ length: (i % 3) + 1 }, (_, k) => `member-${i}-${k}`),
  text: `{"v":1,"type":"message","messageId":"id-${i}","ciphertext":"${"é".repeat(bytes / 2)}"}`,
});

describe("relayed batches", () => {
  it("carry each message's metadata and its frame's text byte for byte, in order", () => {
    const messages = Array.from({ length: 20 }, (_, i) => message(i));
    const parts = encodeRelay("100", "119", messages);
    expect(parts).toHaveLength(1);
    const chunk = decodeRelay(parts[0]!)!;
    expect(chunk).toMatchObject({ a: "100", b: "119", last: true });
    expect(chunk.messages.map((m) => ({ ...m, text: m.text.toString("utf8") }))).toEqual(messages);
  });

  it("split a large batch into parts of about a megabyte, the last marked", () => {
    const messages = Array.from({ length: 30 }, (_, i) => message(i, 100_000));
    const parts = encodeRelay("1", "30", messages);
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) expect(p.length).toBeLessThan(RELAY_CHUNK_BYTES + 200_000);
    const chunks = parts.map((p) => decodeRelay(p)!);
    expect(chunks.map((c) => c.last)).toEqual(parts.map((_, i) => i === parts.length - 1));
    expect(chunks.flatMap((c) => c.messages.map((m) => m.id))).toEqual(messages.map((m) => m.id));
  });

  it("refuse what is not a part: short, a header past the end, bad JSON or fields (a seq not in digits), frames past the end or left over", () => {
    const good = encodeRelay("1", "2", [message(1)])[0]!;
    const header = (json: string, tail = Buffer.alloc(0)) => {
      const h = Buffer.from(json);
      const out = Buffer.alloc(4 + h.length);
      out.writeUInt32BE(h.length, 0);
      h.copy(out, 4);
      return Buffer.concat([out, tail]);
    };
    expect(decodeRelay(Buffer.alloc(3))).toBeNull();
    expect(decodeRelay(Buffer.from([0, 0, 1, 0, 1, 2]))).toBeNull();
    expect(decodeRelay(header("{nope"))).toBeNull();
    expect(decodeRelay(header(`{"a":1,"b":"2","last":true,"m":[]}`))).toBeNull();
    // A seq is decimal digits (a replay compares it as a number).
    expect(decodeRelay(header(`{"a":"1x","b":"2","last":true,"m":[]}`))).toBeNull();
    expect(decodeRelay(header(`{"a":"1","b":"-2","last":true,"m":[]}`))).toBeNull();
    expect(decodeRelay(header(`{"a":"1","b":"2","last":true,"m":[]}`))).not.toBeNull();
    expect(
      decodeRelay(header(`{"a":"1","b":"2","last":true,"m":[["x","m","p",1,["r"],5]]}`, Buffer.from("abc"))),
    ).toBeNull();
    expect(decodeRelay(header(`{"a":"1","b":"2","last":true,"m":[["x","m","p",1,["r"],-1]]}`))).toBeNull();
    expect(decodeRelay(header(`{"a":"1","b":"2","last":true,"m":[["x","m","p",1,[2],0]]}`))).toBeNull();
    expect(decodeRelay(Buffer.concat([good, Buffer.from("x")]))).toBeNull();
    expect(decodeRelay(good.subarray(0, good.length - 1))).toBeNull();
    expect(decodeRelay(good)).not.toBeNull();
  });
});
