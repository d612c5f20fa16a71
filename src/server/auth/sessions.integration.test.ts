import { visitorCtx } from "@/test/mesh-fixtures";
import { afterAll, describe, expect, it } from "vitest";
import { registerUser } from "@/server/services/users/register-user";
import { testDb, uid } from "@/test/helpers";
import { isAdministrator } from "./admin";
import { closeSession, findSessionUser, openSession } from "./sessions";

const db = testDb();
afterAll(() => db.$disconnect());

describe("server-side sessions", () => {
  it("opens, finds and closes a session; only the hash of its secret is stored", async () => {
    const user = await registerUser(visitorCtx(db), {
      name: "S",
      email: `${uid("s")}@example.test`,
      password: "a-long-password",
    });
    const secret = await openSession(db, user.id, { userAgent: "vitest", ipAddress: "203.0.113.7" });
    expect((await findSessionUser(db, secret))?.id).toBe(user.id);
    const rows = await db.session.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.sessionToken).not.toBe(secret);
    expect(rows[0]?.sessionToken).toMatch(/^[0-9a-f]{64}$/);

    await closeSession(db, secret);
    expect(await findSessionUser(db, secret)).toBeNull();
  });

  it("treats an expired or unknown session as signed out", async () => {
    const user = await registerUser(visitorCtx(db), {
      name: "E",
      email: `${uid("e")}@example.test`,
      password: "a-long-password",
    });
    const secret = await openSession(db, user.id);
    await db.session.updateMany({ where: { userId: user.id }, data: { expires: new Date(Date.now() - 1000) } });
    expect(await findSessionUser(db, secret)).toBeNull();
    expect(await findSessionUser(db, "no-such-secret")).toBeNull();
  });
});

describe("administrators (ADMIN_EMAILS)", () => {
  it("are the listed addresses once confirmed: signing up with an unconfirmed listed address gives no admin rights", async () => {
    const email = `${uid("boss")}@example.test`;
    const adminEmails = `ops@example.test, ${email.toUpperCase()}`;
    // Sign-up is open: anyone may register the address an operator listed before its owner did.
    const user = await registerUser(visitorCtx(db), { name: "Not the boss", email, password: "a-long-password" });
    const secret = await openSession(db, user.id);
    const found = await findSessionUser(db, secret);
    expect(found).toMatchObject({ id: user.id, email, emailVerified: false });
    expect(isAdministrator(found!, adminEmails)).toBe(false);

    // Once the address is confirmed (the link of the verification mail, or a password reset by mail).
    await db.user.update({ where: { id: user.id }, data: { emailVerified: new Date() } });
    const confirmed = await findSessionUser(db, secret);
    expect(isAdministrator(confirmed!, adminEmails)).toBe(true);
    expect(isAdministrator(confirmed!, "ops@example.test")).toBe(false);
  });
});
