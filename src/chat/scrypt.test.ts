import { scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { scrypt } from "./scrypt";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const text = (s: string) => new TextEncoder().encode(s);

describe("scrypt", () => {
  // RFC 7914, section 12 (the 2^20 vector takes a gigabyte and is left to node:crypto's comparison below).
  it("gives the RFC 7914 test vectors", async () => {
    expect(hex(await scrypt(text(""), text(""), { N: 16, r: 1, p: 1 }, 64))).toBe(
      "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906",
    );
    expect(hex(await scrypt(text("password"), text("NaCl"), { N: 1024, r: 8, p: 16 }, 64))).toBe(
      "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
    );
    expect(hex(await scrypt(text("pleaseletmein"), text("SodiumChloride"), { N: 16384, r: 8, p: 1 }, 64))).toBe(
      "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887",
    );
  });

  it("agrees with node:crypto's scryptSync on other passwords, salts and costs", async () => {
    const cases = [
      { password: "correct horse battery staple", salt: "0123456789abcdef", N: 1 << 12, r: 8, p: 1, len: 32 },
      { password: "ünïcødé ✓", salt: "s", N: 1 << 10, r: 4, p: 2, len: 48 },
      { password: "x", salt: "", N: 2, r: 1, p: 3, len: 16 },
    ];
    for (const c of cases) {
      const ours = await scrypt(text(c.password), text(c.salt), { N: c.N, r: c.r, p: c.p }, c.len);
      const node = scryptSync(c.password, c.salt, c.len, { N: c.N, r: c.r, p: c.p, maxmem: 256 * 1024 * 1024 });
      expect(hex(ours)).toBe(node.toString("hex"));
    }
  });

  it("refuses an N that is not a power of two", async () => {
    await expect(scrypt(text("a"), text("b"), { N: 1000, r: 8, p: 1 }, 32)).rejects.toThrow(RangeError);
  });
});
