import { visitorCtx } from "@/test/mesh-fixtures";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import { testDb, uid } from "@/test/helpers";
import { authenticate } from "./authenticate";
import { registerUser } from "./register-user";

const db = testDb();
afterAll(() => db.$disconnect());

describe("registerUser and authenticate", () => {
  it("stores only an scrypt hash and signs in with the right password", async () => {
    const email = `${uid("reg")}@Example.test`;
    const user = await registerUser(visitorCtx(db), { name: "Reg", email, password: "a-long-password" });
    expect(user.email).toBe(email.toLowerCase());
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain("a-long-password");
    await expect(
      authenticate(visitorCtx(db), { email: email.toUpperCase(), password: "a-long-password" }),
    ).resolves.toMatchObject({
      id: user.id,
    });
  });

  it("gives the same null for a wrong password, an unknown e-mail and malformed input", async () => {
    const email = `${uid("auth")}@example.test`;
    await registerUser(visitorCtx(db), { name: "A", email, password: "a-long-password" });
    await expect(authenticate(visitorCtx(db), { email, password: "wrong-password" })).resolves.toBeNull();
    await expect(
      authenticate(visitorCtx(db), { email: `${uid("none")}@example.test`, password: "a-long-password" }),
    ).resolves.toBeNull();
    await expect(authenticate(visitorCtx(db), { email: "not-an-email", password: 1 })).resolves.toBeNull();
    await expect(authenticate(visitorCtx(db), null)).resolves.toBeNull();
  });

  it("rejects a taken e-mail with CONFLICT, also when two sign-ups race", async () => {
    const email = `${uid("dup")}@example.test`;
    const results = await Promise.allSettled([
      registerUser(visitorCtx(db), { name: "One", email, password: "a-long-password" }),
      registerUser(visitorCtx(db), { name: "Two", email, password: "a-long-password" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(rejected?.reason).toBeInstanceOf(AppError);
    expect((rejected?.reason as AppError).code).toBe("CONFLICT");
    expect(await db.user.count({ where: { email } })).toBe(1);
  });

  it("validates input with zod before touching the database", async () => {
    await expect(registerUser(visitorCtx(db), { name: "", email: "x", password: "short" })).rejects.toThrow();
  });
});
