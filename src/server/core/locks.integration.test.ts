import { afterAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import {
  activeExecutionsLock,
  demoSeedLock,
  joinLock,
  meshCapLock,
  migrationLock,
  ttlSweepLock,
  type AdvisoryKey,
} from "./locks";

const db = testDb();
afterAll(() => db.$disconnect());

/** The key's arguments as PostgreSQL computes them, as text (int8 does not fit a JS number). */
async function keyOf(key: AdvisoryKey): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT ${key.sql
      .split(/,\s*(?![^()]*\))/)
      .map((part, i) => `(${part})::text AS k${i}`)
      .join(", ")}`,
    ...key.values,
  );
  return Object.values(rows[0]!).map(String);
}

// The keys as the code wrote them before locks.ts: a rolling upgrade excludes old processes only while the
// values are the same.
describe("advisory-lock keys", () => {
  it("keep the values of their first forms", async () => {
    const old = async (sql: string) =>
      Object.values((await db.$queryRawUnsafe<Record<string, unknown>[]>(sql))[0]!).map(String);
    const mesh = "0190b0c0-0000-7000-8000-000000000001";
    const user = "0190b0c0-0000-7000-8000-000000000002";
    expect(await keyOf(migrationLock())).toEqual(["8247911079312844833"]);
    expect(await keyOf(demoSeedLock(1))).toEqual(await old("SELECT 7207::text AS a, 1::text AS b"));
    expect(await keyOf(demoSeedLock(2))).toEqual(await old("SELECT 7207::text AS a, 2::text AS b"));
    expect(await keyOf(activeExecutionsLock("user:x"))).toEqual(
      await old("SELECT 7208::text AS a, hashtext('user:x')::text AS b"),
    );
    expect(await keyOf(meshCapLock(mesh))).toEqual(await old(`SELECT hashtext('mesh-cap:${mesh}')::text`));
    expect(await keyOf(ttlSweepLock())).toEqual(await old("SELECT hashtext('broker_ttl_sweep')::text"));
    expect(await keyOf(joinLock(mesh, user))).toEqual(
      await old(`SELECT hashtextextended('join:${mesh}:${user}', 0)::text`),
    );
  });
});
