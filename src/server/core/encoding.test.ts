import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromBase64Url, isBase64Url, toBase64Url, tryDecodeUtf8, tryFromBase64Url, utf8 } from "./encoding";

describe("base64url", () => {
  it("matches Node's encoder and round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const encoded = toBase64Url(bytes);
        expect(encoded).toBe(Buffer.from(bytes).toString("base64url"));
        expect(tryFromBase64Url(encoded)).toEqual(bytes);
        expect(isBase64Url(encoded, bytes.length)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("accepts exactly one spelling: what Node's lenient decoder also reads is refused here", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."AQRSgw89_-+/= \u00c1"), maxLength: 12 }), (text) => {
        const decoded = tryFromBase64Url(text);
        if (decoded) expect(toBase64Url(decoded)).toBe(text);
      }),
      { numRuns: 500 },
    );
    for (const bad of ["AQ==", "AQ=", "+/8", "_-8=", "A", "AB C", "AR", "AAB", "\u00c1A"]) {
      expect(tryFromBase64Url(bad), bad).toBeUndefined();
    }
    expect(tryFromBase64Url("AQ")).toEqual(Uint8Array.of(1));
    expect(tryFromBase64Url("")).toEqual(new Uint8Array(0));
  });

  it("checks without decoding and answers as the decoder does", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."AQRSgw89_-+/= \u00c1\u0000"), maxLength: 14 }),
        fc.option(fc.nat(10), { nil: undefined }),
        (text, size) => {
          expect(isBase64Url(text, size)).toBe(tryFromBase64Url(text, size) !== undefined);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("checks the byte length when asked, and refuses non-strings", () => {
    expect(isBase64Url(toBase64Url(new Uint8Array(32)), 32)).toBe(true);
    expect(isBase64Url(toBase64Url(new Uint8Array(33)), 32)).toBe(false);
    expect(isBase64Url(42)).toBe(false);
    expect(() => fromBase64Url("AQ==")).toThrow(TypeError);
    expect(() => fromBase64Url("AQ", 2)).toThrow(/2 bytes/);
  });
});

describe("utf8", () => {
  it("round-trips text and refuses malformed bytes instead of replacing them", () => {
    expect(tryDecodeUtf8(utf8("h\u00e9llo \u{1f600}"))).toBe("h\u00e9llo \u{1f600}");
    expect(tryDecodeUtf8(Uint8Array.of(0xc3))).toBeUndefined();
    expect(tryDecodeUtf8(Uint8Array.of(0xed, 0xa0, 0x80))).toBeUndefined();
  });
});
