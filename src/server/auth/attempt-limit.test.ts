import { describe, expect, it } from "vitest";
import { AttemptLimiter } from "./attempt-limit";

describe("AttemptLimiter", () => {
  it("stops an e-mail after its quota, whatever address the attempts come from", async () => {
    let t = 0;
    const limiter = AttemptLimiter.local({ perEmailPerMinute: 3, perClientPerMinute: 100, now: () => t });
    expect(await Promise.all([1, 2, 3].map((i) => limiter.attempt("Victim@Example.com", `10.0.0.${i}`)))).toEqual([
      true,
      true,
      true,
    ]);
    expect(await limiter.attempt("victim@example.com", "10.0.0.9")).toBe(false);
    expect(await limiter.attempt("other@example.com", "10.0.0.9")).toBe(true);
    t += 20_000; // one token back after a third of a minute
    expect(await limiter.attempt("victim@example.com", "10.0.0.9")).toBe(true);
  });

  it("stops one client trying many accounts", async () => {
    const limiter = AttemptLimiter.local({ perEmailPerMinute: 100, perClientPerMinute: 2, now: () => 0 });
    expect(await limiter.attempt("a@x.test", "1.2.3.4")).toBe(true);
    expect(await limiter.attempt("b@x.test", "1.2.3.4")).toBe(true);
    expect(await limiter.attempt("c@x.test", "1.2.3.4")).toBe(false);
    expect(await limiter.attempt("c@x.test", "5.6.7.8")).toBe(true);
  });
});
