import { describe, expect, it } from "vitest";
import { needsLogScale } from "./summary-charts";

describe("needsLogScale", () => {
  it("is on where counts differ by two orders of magnitude, zeros aside", () => {
    expect(needsLogScale([1200, 3, 0, 40])).toBe(true);
    expect(needsLogScale([100, 1])).toBe(true);
    expect(needsLogScale([99, 1])).toBe(false);
    expect(needsLogScale([500, 0])).toBe(false);
    expect(needsLogScale([])).toBe(false);
  });
});
