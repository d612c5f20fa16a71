// Issue 16, point 6: sign-up tells nobody whether an address is registered, and passwords are hashed at
// the current cost, rehashed at the next sign-in when an older hash was cheaper.
import { visitorCtx } from "@/test/mesh-fixtures";
import { afterAll, describe, expect, it } from "vitest";
import { randomBytes, scryptSync } from "node:crypto";
import { testDb, uid } from "@/test/helpers";
import { authenticate } from "./authenticate";
import { signUp } from "./sign-up";

const db = testDb();
afterAll(() => db.$disconnect());

describe("sign-up", () => {
  it("creates nothing and changes nothing of the existing account for a taken address", async () => {
    // Issue 41: sign-up signs a new account in at once, so the form's answer tells a new address from a
    // taken one (bounded by the sign-up limits; the taken address' owner is mailed a notice).
    const email = `${uid("taken")}@example.test`;
    await expect(
      signUp(visitorCtx(db), { name: "First", email, password: "first-long-password" }),
    ).resolves.toMatchObject({ email });
    const before = await db.user.findUniqueOrThrow({ where: { email } });
    await expect(
      signUp(visitorCtx(db), { name: "Intruder", email, password: "intruder-password" }),
    ).resolves.toBeNull();
    const after = await db.user.findUniqueOrThrow({ where: { email } });
    expect(after).toEqual(before);
    await expect(authenticate(visitorCtx(db), { email, password: "intruder-password" })).resolves.toBeNull();
    await expect(authenticate(visitorCtx(db), { email, password: "first-long-password" })).resolves.toMatchObject({
      id: before.id,
    });
  });
});

describe("password hashes", () => {
  it("rehashes a cheaper stored hash at the current cost on a successful sign-in, and only then", async () => {
    const email = `${uid("old")}@example.test`;
    // A hash made at N = 1024, as an older version with a cheaper cost stored it.
    const salt = randomBytes(16);
    const key = scryptSync("an-old-password".normalize("NFKC"), salt, 32, { N: 1024, r: 8, p: 1 });
    const old = ["scrypt", 1024, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
    const user = await db.user.create({ data: { email, name: "Old", passwordHash: old } });
    await expect(authenticate(visitorCtx(db), { email, password: "wrong-password" })).resolves.toBeNull();
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(old);
    await expect(authenticate(visitorCtx(db), { email, password: "an-old-password" })).resolves.toMatchObject({
      id: user.id,
    });
    const rehashed = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash ?? "";
    expect(rehashed).toMatch(
      new RegExp(`^scrypt\\$${2 ** Number(process.env.PASSWORD_SCRYPT_LOG2_N ?? 17)}\\$8\\$1\\$`),
    );
    await expect(authenticate(visitorCtx(db), { email, password: "an-old-password" })).resolves.toMatchObject({
      id: user.id,
    });
  });
});
