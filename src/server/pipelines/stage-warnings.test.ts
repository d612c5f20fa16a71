import { describe, expect, it } from "vitest";
import { modelWarning, NO_ITEMS_WARNING, parseWarning, warning, writerFailedWarning } from "./stage-warnings";

describe("stage warnings", () => {
  it("reads back every warning the stages write, with its numbers", () => {
    for (const kind of ["duplicates", "empty", "badRatings", "unknownLanguage"] as const) {
      expect(parseWarning(warning(kind, 46))).toEqual({ key: kind, values: { count: 46 } });
    }
    const v = { byModel: 90, total: 100, cached: 10, requests: 3, failed: 1, sentiment: 7, critical: 2 };
    expect(parseWarning(modelWarning(v))).toEqual({ key: "model", values: v });
    expect(parseWarning(writerFailedWarning("x".repeat(300)))).toEqual({
      key: "writerFailed",
      values: { count: 0 },
      detail: "x".repeat(200),
    });
    expect(parseWarning(NO_ITEMS_WARNING)).toEqual({ key: "noItems", values: { count: 0 } });
  });

  it("leaves a warning it does not know to be shown as stored", () => {
    expect(parseWarning("46 duplicate reviews dropped, and more")).toBeNull();
    expect(parseWarning("something else")).toBeNull();
  });
});
