import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crlfRecords } from "./review-export";

async function through(chunks: string[], bom = false): Promise<string> {
  // Decoded keeping a byte-order mark (a default decoder drops it).
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(
    await buffer(Readable.from(chunks.map((c) => Buffer.from(c))).pipe(crlfRecords(bom))),
  );
}

describe("CSV record ends", () => {
  it("turns record-ending LFs into CRLF and leaves line breaks inside quoted values alone", async () => {
    expect(await through(['a,b\n1,"x\ny"\n2,"say ""hi""\n"\n'])).toBe('a,b\r\n1,"x\ny"\r\n2,"say ""hi""\n"\r\n');
  });

  it("keeps the quote state across chunk boundaries, wherever a chunk is cut", async () => {
    const whole = 'id,text\n1,"a, ""quoted""\nline"\n2,plain\n3,"\n"\n';
    const expected = 'id,text\r\n1,"a, ""quoted""\nline"\r\n2,plain\r\n3,"\n"\r\n';
    for (let cut = 0; cut <= whole.length; cut++) {
      expect(await through([whole.slice(0, cut), whole.slice(cut)]), `cut at ${cut}`).toBe(expected);
    }
    expect(await through(whole.split(""))).toBe(expected);
  });

  it("agrees with a byte-by-byte reading on any text cut into any chunks", async () => {
    const reference = (whole: string) => {
      let quoted = false;
      let out = "";
      for (const ch of whole) {
        if (ch === '"') quoted = !quoted;
        out += ch === "\n" && !quoted ? "\r\n" : ch;
      }
      return out;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom("a", ",", '"', "\n", "é"), { maxLength: 60 }),
        fc.array(fc.nat(60), { maxLength: 5 }),
        async (chars, cuts) => {
          const whole = chars.join("");
          const points = [...new Set(cuts.map((c) => Math.min(c, whole.length)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((p, i, all) => whole.slice(p, all[i + 1] ?? whole.length));
          expect(await through(chunks)).toBe(reference(whole));
        },
      ),
    );
  });

  it("puts a byte-order mark first when asked, once", async () => {
    const out = await through(["a\n", "b\n"], true);
    expect(out).toBe("\uFEFFa\r\nb\r\n");
  });
});
