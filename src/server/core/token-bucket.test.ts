import { describe, expect, it } from "vitest";
import { TokenBucketLimiter } from "./token-bucket";

function limiter(capacity = 3, refillPerMinute = 60) {
  let t = 1_000_000;
  const l = new TokenBucketLimiter({ capacity, refillPerMinute, now: () => t });
  return { l, advance: (ms: number) => (t += ms) };
}

describe("TokenBucketLimiter", () => {
  it("starts a new key full (rule 1) and consumes one token per take (rule 4)", () => {
    const { l } = limiter(3);
    expect(l.take("a").remaining).toBe(2);
    expect(l.take("a").remaining).toBe(1);
    expect(l.take("a").remaining).toBe(0);
    expect(l.take("b").remaining).toBe(2);
  });

  it("denies below one token without consuming (rule 3)", () => {
    const { l, advance } = limiter(1, 60);
    expect(l.take("k").allowed).toBe(true);
    const denied = l.take("k");
    expect(denied.allowed).toBe(false);
    expect(denied.retryAfterMs).toBe(1000);
    advance(500);
    expect(l.take("k").allowed).toBe(false);
    expect(l.peek("k")?.tokens).toBeCloseTo(0.5);
    advance(500);
    expect(l.take("k").allowed).toBe(true);
  });

  it("refills per millisecond at refill/60000, capped at capacity, and moves lastRefill (rule 2)", () => {
    const { l, advance } = limiter(5, 30);
    for (let i = 0; i < 5; i++) l.take("k");
    advance(4000); // 30/min = 0.5 per second
    l.take("k");
    expect(l.peek("k")?.tokens).toBeCloseTo(1);
    advance(3_600_000);
    l.take("k");
    expect(l.peek("k")?.tokens).toBeCloseTo(4);
    expect(l.peek("k")?.lastRefill).toBe(1_000_000 + 4000 + 3_600_000);
  });

  it("sweeps buckets idle past the threshold (rule 5) and counts buckets (rule 6)", () => {
    let t = 0;
    const l = new TokenBucketLimiter({ capacity: 2, refillPerMinute: 2, sweepAfterMs: 600_000, now: () => t });
    l.take("old");
    t = 300_000;
    l.take("new");
    expect(l.size).toBe(2);
    t = 600_001;
    expect(l.sweep()).toBe(1);
    expect(l.size).toBe(1);
    expect(l.peek("old")).toBeUndefined();
  });

  it("holds at most maxKeys buckets, dropping the least recently used, and sweeps as it is used", () => {
    let t = 0;
    const l = new TokenBucketLimiter({
      capacity: 2,
      refillPerMinute: 2,
      sweepAfterMs: 60_000,
      maxKeys: 3,
      now: () => t,
    });
    l.take("a");
    l.take("b");
    l.take("c");
    l.take("a"); // a is the most recently used now
    l.take("d"); // full: b, the least recently used, goes
    expect(l.size).toBe(3);
    expect(l.peek("b")).toBeUndefined();
    expect(l.peek("a")).toBeDefined();
    // A million distinct keys never hold more than maxKeys buckets.
    for (let i = 0; i < 1_000_000; i++) l.take(`k${i}`);
    expect(l.size).toBe(3);
    // Idle buckets go on a later take, without anyone calling sweep().
    t = 120_000;
    l.take("fresh");
    expect(l.size).toBe(1);
  });

  it("rejects a non-positive capacity", () => {
    expect(() => new TokenBucketLimiter({ capacity: 0, refillPerMinute: 1 })).toThrow(RangeError);
  });
});
