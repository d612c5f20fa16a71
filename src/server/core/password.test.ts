import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "./password";

describe("password hashing", () => {
  it("verifies the right password and rejects a wrong one", async () => {
    const hash = await hashPassword("correct horse battery staple");
    // OWASP's recommendation by default (N = 2^17), or the test run's PASSWORD_SCRYPT_LOG2_N.
    const n = 2 ** Number(process.env.PASSWORD_SCRYPT_LOG2_N ?? 17);
    expect(hash).toMatch(new RegExp(`^scrypt\\$${n}\\$8\\$1\\$[\\w-]+\\$[\\w-]+$`));
    expect(hash).not.toContain("correct horse");
    await expect(verifyPassword("correct horse battery staple", hash)).resolves.toBe(true);
    await expect(verifyPassword("correct horse battery stapl", hash)).resolves.toBe(false);
  });

  it("asks for a rehash of a hash cheaper than the current cost, not of a current one", async () => {
    expect(needsRehash("scrypt$2048$8$1$AAAA$AAAA")).toBe(true);
    expect(needsRehash("bcrypt$x")).toBe(true);
    expect(needsRehash(await hashPassword("x"))).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });

  it("treats malformed stored values as a failed check, never an exception", async () => {
    for (const bad of ["", "plain", "scrypt$1$2$3", "bcrypt$x$y$z$a$b", "scrypt$0$8$1$AA$AA", "scrypt$16384$8$1$AA$"]) {
      await expect(verifyPassword("x", bad)).resolves.toBe(false);
    }
  });
});
