import { describe, expect, it } from "vitest";
import { backoff } from "./backoff";

describe("backoff", () => {
  it("doubles from the base up to the cap, without jitter when asked", () => {
    const opts = { baseMs: 250, capMs: 10_000, jitter: "none" } as const;
    expect([0, 1, 2, 3, 6, 100, 5_000].map((a) => backoff(a, opts))).toEqual([
      250, 500, 1_000, 2_000, 10_000, 10_000, 10_000,
    ]);
    expect(backoff(-3, opts)).toBe(250);
  });

  it("keeps half the step and draws the other half (equal jitter, the default)", () => {
    const opts = { baseMs: 500, capMs: 30_000 };
    expect([0, 1, 2].map((a) => backoff(a, opts, () => 0))).toEqual([250, 500, 1_000]);
    expect([0, 1, 2].map((a) => backoff(a, opts, () => 1))).toEqual([500, 1_000, 2_000]);
    expect(backoff(1_000, opts, () => 0)).toBe(15_000);
  });

  it("draws anywhere between 0 and the step (full jitter)", () => {
    const opts = { baseMs: 500, capMs: 2_500, jitter: "full" } as const;
    expect([0, 1, 2, 3, 50].map((a) => backoff(a, opts, () => 1))).toEqual([500, 1_000, 2_000, 2_500, 2_500]);
    expect(backoff(50, opts, () => 0)).toBe(0);
    expect(backoff(50, opts, () => 0.5)).toBe(1_250);
  });

  it("grows by the given factor", () => {
    expect([0, 1, 2].map((a) => backoff(a, { baseMs: 100, capMs: 1_000, factor: 3, jitter: "none" }))).toEqual([
      100, 300, 900,
    ]);
  });
});
