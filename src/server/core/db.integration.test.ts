import { afterAll, describe, expect, it } from "vitest";
import { testDb, uid } from "@/test/helpers";
import { Prisma, sqlRows } from "./db";

const db = testDb();
afterAll(() => db.$disconnect());

describe("sqlRows", () => {
  it("reads a row as Prisma does, timestamps as UTC, on sessions in UTC", async () => {
    const user = await db.user.create({ data: { email: `${uid("sql")}@example.test`, name: "Sql Rows" } });
    const sql = Prisma.sql`SELECT id, email, name, created_at AS "createdAt", current_setting('TimeZone') AS tz FROM users WHERE id = ${user.id}`;
    const [direct] = await sqlRows<{ id: string; email: string; name: string; createdAt: Date; tz: string }>(db, sql);
    const [viaPrisma] = await db.$queryRaw<{ createdAt: Date; tz: string }[]>(sql);
    expect(direct?.createdAt).toBeInstanceOf(Date);
    expect(direct?.createdAt.toISOString()).toBe(user.createdAt.toISOString());
    expect(viaPrisma?.createdAt.toISOString()).toBe(user.createdAt.toISOString());
    expect(direct?.tz).toBe("UTC");
    expect(viaPrisma?.tz).toBe("UTC");
    // now() written into a `timestamp` column by SQL is read back as the same instant.
    const before = Date.now();
    const [stamped] = await sqlRows<{ updatedAt: Date }>(db, Prisma.sql`UPDATE users SET updated_at = now() WHERE id = ${user.id} RETURNING updated_at AS "updatedAt"`);
    expect(Math.abs((stamped?.updatedAt.getTime() ?? 0) - before)).toBeLessThan(5_000);
  });

  it("runs inside a transaction on that transaction", async () => {
    const email = `${uid("tx")}@example.test`;
    await expect(
      db.$transaction(async (tx) => {
        await tx.user.create({ data: { email } });
        const rows = await sqlRows<{ n: number }>(tx, Prisma.sql`SELECT count(*)::int AS n FROM users WHERE email = ${email}`);
        expect(rows[0]?.n).toBe(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await db.user.count({ where: { email } })).toBe(0);
  });
});
