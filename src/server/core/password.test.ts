import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password";

describe("password hashing", () => {
  it("verifies the right password and rejects a wrong one", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(hash).not.toContain("correct horse");
    await expect(verifyPassword("correct horse battery staple", hash)).resolves.toBe(true);
    await expect(verifyPassword("correct horse battery stapl", hash)).resolves.toBe(false);
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
