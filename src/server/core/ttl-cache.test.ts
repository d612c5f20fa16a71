import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache";

describe("TtlCache", () => {
  it("serves an entry until its TTL has passed, then drops it", () => {
    let now = 1_000;
    const cache = new TtlCache<string, number>({ maxEntries: 10, ttlMs: 100, now: () => now });
    cache.set("a", 1);
    now = 1_099;
    expect(cache.get("a")).toBe(1);
    now = 1_100;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("reads and writes at a given time instead of the clock's", () => {
    const cache = new TtlCache<string, number>({ maxEntries: 10, ttlMs: 100, now: () => 0 });
    cache.set("a", 1, 500);
    expect(cache.get("a", 599)).toBe(1);
    expect(cache.has("a", 600)).toBe(false);
  });

  it("keeps at most maxEntries, dropping the oldest written", () => {
    const cache = new TtlCache<string, number>({ maxEntries: 2, ttlMs: Infinity });
    cache.set("a", 1).set("b", 2).set("a", 3).set("c", 4);
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c"), cache.size]).toEqual([3, 4, 2]);
    cache.delete("a");
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
