// Jobs of one place finishing at the same moment (bench/jobs.ts runs thousands of jobs of one place): the
// place record is created once and every job's end is written; none fails on the primary key.
import { afterAll, describe, expect, it } from "vitest";
import { createDb, Prisma } from "@/server/core/db";
import { placeIdOf, placeUpsertCte, type PlaceSeen } from "./place-store";

// A pool as wide as the race: every transaction holds a connection of its own.
const db = createDb(process.env.DATABASE_URL ?? "", { max: 16 });
afterAll(() => db.$disconnect());

describe("place records under concurrent job ends", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "creates one record when 16 transactions see a new place at once, and each returns its id (round %i)",
    async (round) => {
      const seen: PlaceSeen = {
        source: { platform: "demo", origin: `http://127.0.0.1:1/${Date.now()}`, placeKey: `p-000${round}` },
        facts: { name: "Café Uno", rating: 4.2 },
      };
      const outcomes = await Promise.allSettled(
        Array.from({ length: 16 }, (_, i) =>
          db.$transaction(async (tx) => {
            // Every transaction is open (its connection taken) before any of them inserts.
            await tx.$executeRaw`SELECT pg_sleep(0.2)`;
            // Both sides of the race hold their insert open a moment, as a job's end does (one statement with its job and events).
            const rows = await tx.$queryRaw<{ id: string }[]>(
              Prisma.sql`WITH ${placeUpsertCte({ ...seen, facts: { ...seen.facts, reviewCount: 100 + i } }, new Date())} SELECT id::text FROM pl`,
            );
            await tx.$executeRaw`SELECT pg_sleep(0.05)`;
            return rows[0]?.id;
          }),
        ),
      );
      const failed = outcomes
        .filter((o) => o.status === "rejected")
        .map((o) => String((o as PromiseRejectedResult).reason).slice(0, 200));
      expect(failed).toEqual([]);
      expect(new Set(outcomes.map((o) => (o as PromiseFulfilledResult<string>).value))).toEqual(
        new Set([placeIdOf(seen.source)]),
      );
      const rows = await db.place.findMany({ where: { origin: seen.source.origin } });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: "Café Uno", rating: 4.2 });
    },
  );
});
