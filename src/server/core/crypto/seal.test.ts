import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateKeyRingValue, needsReseal, open, parseKeyRing, reseal, seal } from "./seal";

const keyB64 = (fill: number) => Buffer.alloc(32, fill).toString("base64");
const oldEntry = `k1:${keyB64(1)}`;
const newEntry = `k2:${keyB64(2)}`;
const ring = parseKeyRing(oldEntry);

/** Replaces one base64url character of a part of a sealed value (2 = iv, 3 = ciphertext+tag). */
function tamper(sealed: string, part: 2 | 3, at: number): string {
  const parts = sealed.split(".");
  const text = parts[part] ?? "";
  const i = at < 0 ? text.length + at : at;
  parts[part] = `${text.slice(0, i)}${text[i] === "A" ? "B" : "A"}${text.slice(i + 1)}`;
  return parts.join(".");
}

describe("seal and open", () => {
  afterEach(() => vi.restoreAllMocks());

  it("round-trips bytes and strings in the v1.<keyId>.<iv>.<ciphertext> format, with a fresh IV each time", () => {
    const secret = randomBytes(64);
    const sealed = seal(ring, secret, "mesh:1");
    expect(sealed).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(open(ring, sealed, "mesh:1").equals(secret)).toBe(true);
    expect(open(ring, seal(ring, "callback secret")).toString("utf8")).toBe("callback secret");
    expect(open(ring, seal(ring, ""), "").length).toBe(0);
    expect(seal(ring, secret, "mesh:1")).not.toBe(sealed);
  });

  it("fails when the associated data differs (a value moved to another row)", () => {
    const sealed = seal(ring, "s", "mesh:1");
    expect(() => open(ring, sealed, "mesh:2")).toThrow(/failed authentication/);
    expect(() => open(ring, sealed)).toThrow(/failed authentication/);
    expect(() => open(ring, seal(ring, "s"), "mesh:1")).toThrow(/failed authentication/);
  });

  it("fails on a tampered IV, ciphertext or tag", () => {
    const sealed = seal(ring, "a secret worth tampering with", "aad");
    for (const bad of [tamper(sealed, 2, 0), tamper(sealed, 3, 0), tamper(sealed, 3, -2)]) {
      expect(() => open(ring, bad, "aad")).toThrow(Error);
    }
    const [v, id, iv, body] = sealed.split(".") as [string, string, string, string];
    expect(() => open(ring, [v, id, iv, body.slice(0, -4)].join("."), "aad")).toThrow(Error);
  });

  it("fails on an unknown key id and on a bad format, naming neither key nor plaintext", () => {
    const foreign = seal(parseKeyRing(`k9:${keyB64(9)}`), "s");
    expect(() => open(ring, foreign)).toThrow(/"k9".*not in SECRETS_KEYS/);
    const iv = "A".repeat(16);
    const tag = "A".repeat(22);
    const formats = [
      "",
      "v1.k1",
      `v2.k1.${iv}.${tag}`,
      `v1.k1.AAAA.${tag}`,
      `v1.k1.${iv}.AAAA`,
      `v1.k1.${iv}.AA+A`,
      "v1..a.b.c",
    ];
    for (const bad of formats) {
      expect(() => open(ring, bad), bad).toThrow(Error);
    }
    expect(() => open(ring, 42 as unknown as string)).toThrow(/format/);
  });

  it("rotates: add a new first key, re-seal what needs it, then drop the old key", () => {
    const sealedOld = seal(ring, "owner secret", "mesh:1");
    const both = parseKeyRing(`${newEntry},${oldEntry}`);
    expect(both.primaryId).toBe("k2");
    expect(open(both, sealedOld, "mesh:1").toString()).toBe("owner secret");
    expect(needsReseal(both, sealedOld)).toBe(true);
    const resealed = reseal(both, sealedOld, "mesh:1");
    expect(resealed.startsWith("v1.k2.")).toBe(true);
    expect(needsReseal(both, resealed)).toBe(false);
    const newOnly = parseKeyRing(newEntry);
    expect(open(newOnly, resealed, "mesh:1").toString()).toBe("owner secret");
    expect(() => open(newOnly, sealedOld, "mesh:1")).toThrow(/"k1"/);
  });

  it("never logs anything", () => {
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => {}),
    );
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const sealed = seal(ring, "quiet", "aad");
    open(ring, sealed, "aad");
    expect(() => open(ring, sealed, "other")).toThrow();
    expect(() => parseKeyRing("nope")).toThrow();
    for (const spy of [...spies, stdout, stderr]) expect(spy).not.toHaveBeenCalled();
  });
});

describe("parseKeyRing", () => {
  it("keeps order, trims spaces and accepts base64 with or without padding, or base64url", () => {
    const url = Buffer.alloc(32, 0xfb).toString("base64url");
    const r = parseKeyRing(` a:${keyB64(1)} , b_2:${keyB64(2).replace("=", "")},c-3:${url}`);
    expect(r.ids).toEqual(["a", "b_2", "c-3"]);
    expect(r.primaryId).toBe("a");
  });

  it("rejects bad values with a message naming SECRETS_KEYS and never the key", () => {
    const short = Buffer.alloc(31, 5).toString("base64");
    const k = keyB64(1);
    const long = Buffer.alloc(48).toString("base64");
    const cases = [
      "",
      "   ",
      "k1",
      `:${k}`,
      "k1:",
      `k1:${short}`,
      `k1:${k},`,
      `k1:${k},k1:${keyB64(2)}`,
      `k.1:${k}`,
      `k1:${k}!`,
      `k1:${long}`,
    ];
    for (const value of cases) {
      expect(() => parseKeyRing(value), value).toThrow(/SECRETS_KEYS/);
      try {
        parseKeyRing(value);
      } catch (error) {
        expect(String(error)).not.toContain(short);
        expect(String(error)).not.toContain(keyB64(1));
      }
    }
  });

  it("exposes ids only, so a logged or serialised ring shows no key material", () => {
    const r = parseKeyRing(`${newEntry},${oldEntry}`);
    expect(JSON.stringify(r)).toBe('{"primaryId":"k2","ids":["k2","k1"]}');
    expect(Object.isFrozen(r)).toBe(true);
  });

  it("generates entries a ring accepts", () => {
    const entry = generateKeyRingValue(new Date("2026-01-01T00:00:00Z"));
    expect(entry).toMatch(/^k1767225600:[A-Za-z0-9+/]{43}=$/);
    expect(parseKeyRing(`${generateKeyRingValue()},${entry}`).ids).toHaveLength(2);
    expect(generateKeyRingValue()).not.toBe(generateKeyRingValue());
  });
});
