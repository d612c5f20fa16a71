import { afterAll, describe, expect, it } from "vitest";
import { authenticate } from "../src/server/services/users/authenticate";
import { testDb } from "../src/test/helpers";
import { DEMO_USERS, seed } from "./seed";

const db = testDb();
afterAll(() => db.$disconnect());

describe("seed", () => {
  it("adds the demo users once; a second run adds nothing", async () => {
    await seed(db);
    const before = await db.user.count();
    const second = await seed(db);
    expect(second.created).toBe(0);
    expect(await db.user.count()).toBe(before);
    for (const demo of DEMO_USERS) {
      await expect(authenticate(db, { email: demo.email, password: demo.password })).resolves.toMatchObject({ email: demo.email });
    }
  });

  it("stays idempotent when two processes seed at once", async () => {
    await Promise.all([seed(db), seed(db), seed(db)]);
    for (const demo of DEMO_USERS) expect(await db.user.count({ where: { email: demo.email } })).toBe(1);
  });
});
