import { describe, expect, it } from "vitest";
import { cachedRead } from "./metrics";

describe("cachedRead (the rate_limits count behind /metrics)", () => {
  it("reads once per TTL however often it is asked, and again once the TTL is over", async () => {
    let clock = 0;
    let reads = 0;
    const read = cachedRead(
      async () => ++reads,
      30_000,
      () => clock,
    );
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    clock += 29_999;
    expect(await read()).toBe(1);
    clock += 1;
    expect(await read()).toBe(2);
    expect(reads).toBe(2);
  });

  it("does not keep a failed read", async () => {
    let fail = true;
    const read = cachedRead(async () => {
      if (fail) throw new Error("database down");
      return 7;
    }, 30_000);
    await expect(read()).rejects.toThrow("database down");
    fail = false;
    expect(await read()).toBe(7);
  });
});
