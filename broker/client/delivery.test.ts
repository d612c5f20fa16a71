import { afterEach, describe, expect, it, vi } from "vitest";
import { AckBatcher, backoffDelay, SeenIds } from "./delivery";

afterEach(() => vi.useRealTimers());

describe("reconnect backoff", () => {
  it("doubles from the initial delay up to the cap, with half of each step random", () => {
    const opts = { initialMs: 500, maxMs: 30_000 };
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, opts, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, opts, () => 0))).toEqual([250, 500, 1000, 2000]);
    expect(backoffDelay(20, opts, () => 1)).toBe(30_000);
    expect(backoffDelay(1000, opts, () => 0)).toBe(15_000);
    const spread = new Set(Array.from({ length: 50 }, () => backoffDelay(4, opts)));
    expect(spread.size).toBeGreaterThan(1);
    for (const d of spread) expect(d >= 4000 && d <= 8000).toBe(true);
  });
});

describe("seen message ids", () => {
  it("recognises ids it holds and forgets the oldest past its capacity", () => {
    const seen = new SeenIds(3);
    for (const id of ["a", "b", "c", "a"]) seen.add(id);
    expect(seen.size).toBe(3);
    seen.add("d");
    expect([seen.has("a"), seen.has("b"), seen.has("d")]).toEqual([false, true, true]);
  });
});

describe("ack batching", () => {
  it("sends the ids of one burst in one frame, and splits above the frame limit", () => {
    vi.useFakeTimers();
    const sent: string[][] = [];
    const acks = new AckBatcher((ids) => sent.push(ids), 20, 3);
    acks.add("a");
    acks.add("b");
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(sent).toEqual([["a", "b"]]);
    for (const id of ["c", "d", "e", "f"]) acks.add(id);
    expect(sent).toEqual([["a", "b"], ["c", "d", "e"]]);
    acks.flush();
    expect(sent.at(-1)).toEqual(["f"]);
    acks.add("g");
    acks.drop();
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(3);
  });
});
