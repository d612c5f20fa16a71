import { describe, expect, it } from "vitest";
import { chartRows, intervalParts, targetView } from "./schedule-format";

describe("intervalParts", () => {
  it("uses the largest unit that divides the interval", () => {
    expect(intervalParts(3_600)).toEqual({ unit: "hour", count: 1 });
    expect(intervalParts(5_400)).toEqual({ unit: "minute", count: 90 });
    expect(intervalParts(90)).toEqual({ unit: "second", count: 90 });
    expect(intervalParts(86_400 * 2)).toEqual({ unit: "day", count: 2 });
    expect(intervalParts(604_800 * 3)).toEqual({ unit: "week", count: 3 });
    expect(intervalParts(60)).toEqual({ unit: "minute", count: 1 });
  });
});

describe("targetView", () => {
  it("reads the place, the limit and the pinned version of a stored target", () => {
    expect(
      targetView({ platform_id: "p-0003", review_limit: 50, scraper_version: "v2", scraper_variant: "json" }),
    ).toEqual({ place: "p-0003", reviewLimit: 50, version: "v2/json" });
    expect(targetView({ place_url: "http://127.0.0.1:4500/places/p-1", review_limit: 100 })).toEqual({
      place: "http://127.0.0.1:4500/places/p-1",
      reviewLimit: 100,
      version: null,
    });
    expect(targetView({})).toEqual({ place: "—", reviewLimit: null, version: null });
  });
});

describe("chartRows", () => {
  it("puts the oldest run first and keeps a run without counts as a gap", () => {
    const rows = chartRows(
      [
        { slot: new Date("2026-11-03T06:00:00Z"), changes: null },
        { slot: new Date("2026-11-01T06:00:00Z"), changes: { new: 40, updated: 0, unchanged: 0 } },
        { slot: new Date("2026-11-02T06:00:00Z"), changes: { new: 5, updated: 1, unchanged: 20 } },
      ],
      (d) => d.toISOString().slice(0, 10),
    );
    expect(rows).toEqual([
      { slot: "2026-11-01", new: 40, updated: 0, unchanged: 0 },
      { slot: "2026-11-02", new: 5, updated: 1, unchanged: 20 },
      { slot: "2026-11-03", new: null, updated: null, unchanged: null },
    ]);
  });
});
