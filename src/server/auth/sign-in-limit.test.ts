import { describe, expect, it } from "vitest";
import { clientAddress } from "@/server/core/client-address";
import { SignInLimiter } from "./sign-in-limit";

describe("SignInLimiter", () => {
  it("stops an e-mail after its quota, whatever address the attempts come from", () => {
    let t = 0;
    const limiter = new SignInLimiter({ perEmailPerMinute: 3, perClientPerMinute: 100, now: () => t });
    expect([1, 2, 3].map((i) => limiter.attempt("Victim@Example.com", `10.0.0.${i}`))).toEqual([true, true, true]);
    expect(limiter.attempt("victim@example.com", "10.0.0.9")).toBe(false);
    expect(limiter.attempt("other@example.com", "10.0.0.9")).toBe(true);
    t += 20_000; // one token back after a third of a minute
    expect(limiter.attempt("victim@example.com", "10.0.0.9")).toBe(true);
  });

  it("stops one client trying many accounts", () => {
    const limiter = new SignInLimiter({ perEmailPerMinute: 100, perClientPerMinute: 2, now: () => 0 });
    expect(limiter.attempt("a@x.test", "1.2.3.4")).toBe(true);
    expect(limiter.attempt("b@x.test", "1.2.3.4")).toBe(true);
    expect(limiter.attempt("c@x.test", "1.2.3.4")).toBe(false);
    expect(limiter.attempt("c@x.test", "5.6.7.8")).toBe(true);
  });

  it("reads the first forwarded address", () => {
    const req = new Request("http://x", { headers: { "x-forwarded-for": "203.0.113.7, 10.0.0.1" } });
    expect(clientAddress(req.headers)).toBe("203.0.113.7");
    expect(clientAddress(new Request("http://x").headers)).toBe("local");
    expect(clientAddress(undefined)).toBe("local");
  });
});
