import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "@/server/core/db";
import { testDb, uid } from "@/test/helpers";
import { SharedLimiter } from "./shared-limit";

// Two limiter instances on two clients (two pools) stand for two processes sharing one database.
const dbA = testDb();
const dbB = testDb();
afterAll(() => Promise.all([dbA.$disconnect(), dbB.$disconnect()]));

const pair = (capacity: number, opts: { now?: () => number } = {}) => {
  const scope = uid("scope");
  const make = (db: typeof dbA) =>
    new SharedLimiter({ name: "test", capacity, refillPerMinute: capacity, db, scope, ...opts });
  return [make(dbA), make(dbB)] as const;
};

describe("SharedLimiter (rate_limits table)", () => {
  it("two processes enforce one limit together: 6 + 6 attempts at 10 a minute allow exactly 10", async () => {
    const [a, b] = pair(10);
    const results: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      results.push((await a.take("alice")).allowed);
      results.push((await b.take("alice")).allowed);
    }
    expect(results.filter(Boolean)).toHaveLength(10);
    expect(results.slice(10)).toEqual([false, false]);
    const denied = await a.take("alice");
    expect(denied).toMatchObject({ allowed: false, remaining: 0 });
    expect(denied.retryAfterMs).toBeGreaterThan(0);
    expect(denied.retryAfterMs).toBeLessThanOrEqual(6_000);
  });

  it("never lets concurrent takes past the limit (50 at once, two pools)", async () => {
    const [a, b] = pair(10);
    const taken = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).take("burst")));
    expect(taken.filter((t) => t.allowed)).toHaveLength(10);
    expect(
      taken
        .filter((t) => t.allowed)
        .map((t) => t.remaining)
        .sort((x, y) => x - y),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("refills over time, counts remaining tokens, denies without consuming, and keeps principals apart", async () => {
    let t = 1_000_000;
    const [a, b] = pair(2, { now: () => t });
    expect(await a.take("p")).toMatchObject({ allowed: true, remaining: 1, resetMs: 30_000 });
    expect(await b.take("p")).toMatchObject({ allowed: true, remaining: 0, resetMs: 60_000 });
    expect(await a.take("p")).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 30_000 });
    expect((await b.take("q")).allowed).toBe(true);
    t += 15_000;
    // Half a token accrued; a denied take consumed nothing.
    expect(await b.take("p")).toMatchObject({ allowed: false, retryAfterMs: 15_000 });
    t += 15_000;
    expect(await a.take("p")).toMatchObject({ allowed: true, remaining: 0 });
    t += 60_000;
    expect(await b.take("p")).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("keeps limits with other names or numbers apart, and stores no principal in clear", async () => {
    const scope = uid("scope");
    const one = new SharedLimiter({ name: "one", capacity: 1, refillPerMinute: 1, db: dbA, scope });
    const two = new SharedLimiter({ name: "two", capacity: 1, refillPerMinute: 1, db: dbA, scope });
    expect((await one.take("victim@example.com")).allowed).toBe(true);
    expect((await two.take("victim@example.com")).allowed).toBe(true);
    expect((await one.take("victim@example.com")).allowed).toBe(false);
    const rows = await dbA.$queryRaw<{ key: string }[]>`SELECT key FROM rate_limits WHERE key LIKE ${`${scope}/%`}`;
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.key).not.toContain("victim");
    expect(await one.count()).toBe(1);
  });

  it("sweeps buckets idle past the threshold that are full again, in bounded batches, and keeps the others", async () => {
    let t = 5_000_000;
    const scope = uid("scope");
    const a = new SharedLimiter({
      name: "sweep",
      capacity: 1,
      refillPerMinute: 0.1,
      db: dbA,
      scope,
      sweepAfterMs: 60_000,
      now: () => t,
    });
    for (const p of ["s1", "s2", "s3"]) await a.take(p);
    t += 570_000;
    await a.take("s4");
    t += 40_000; // s1..s3 idle past 60 s and full again (600 s after their take); s4 neither
    expect(await a.count()).toBe(4);
    let swept = 0;
    for (let n = await a.sweep(2); n > 0; n = await a.sweep(2)) swept += n;
    expect(swept).toBeGreaterThanOrEqual(3);
    expect(await a.count()).toBe(1);
    expect((await a.take("s1")).allowed).toBe(true);
    expect((await a.take("s4")).allowed).toBe(false);
  });

  it("falls back to a per-process bucket when the database does not answer, and says so once", async () => {
    // A closed port on loopback: every query fails at once.
    const down = createDb("postgresql://nobody:nothing@127.0.0.1:9/none", { max: 1 });
    const told: unknown[] = [];
    const limiter = new SharedLimiter({
      name: "down",
      capacity: 2,
      refillPerMinute: 2,
      db: down,
      scope: uid("scope"),
      timeoutMs: 2_000,
      onFallback: (e) => told.push(e),
    });
    const taken = [await limiter.take("x"), await limiter.take("x"), await limiter.take("x")];
    expect(taken.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(told).toHaveLength(1);
    await down.$disconnect();
  });
});
