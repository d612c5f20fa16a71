import { describe, expect, it } from "vitest";
import { generateInviteCode, INVITE_CODE_PATTERN, normaliseInviteCode } from "./short-code";

describe("invite short codes", () => {
  it("are 16 lower-case base32 characters, 80 random bits, all different", () => {
    const codes = new Set(Array.from({ length: 2000 }, generateInviteCode));
    expect(codes.size).toBe(2000);
    for (const code of codes) expect(code).toMatch(INVITE_CODE_PATTERN);
    // Every character of the alphabet shows up (the encoder uses all 5 bits of each group).
    expect(new Set([...codes].join("")).size).toBe(32);
  });

  it("normalise to lower case and refuse anything else without throwing", () => {
    expect(normaliseInviteCode("ABCDEFGHIJKLMN23")).toBe("abcdefghijklmn23");
    const bad: unknown[] = [
      "",
      "abcdefghijklmn2",
      "abcdefghijklmn234",
      "abcdefghijklmn01",
      "abcdefghijklmn2-",
      "abcdefghijklmné2",
      null,
      42,
      {},
      "a".repeat(10_000),
    ];
    for (const value of bad) expect(normaliseInviteCode(value)).toBeUndefined();
    // A signed token (base64url of JSON, hundreds of characters) is never taken for a code.
    expect(normaliseInviteCode("eyJ2IjoxLCJtZXNoX2lkIjoiMDE5")).toBeUndefined();
  });
});
