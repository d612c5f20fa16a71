import { visitorCtx } from "@/test/mesh-fixtures";
import { afterAll, describe, expect, it } from "vitest";
import { registerUser } from "@/server/services/users/register-user";
import { testDb, uid } from "@/test/helpers";
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
