import { describe, expect, it } from "vitest";
import { STACK_SERIES, statusStack, versionLabel } from "./status-stack";

describe("the engine's charts", () => {
  it("draw every job of a row: cancelled and unfinished jobs included", () => {
    const by = { queued: 1, running: 2, succeeded: 7, failed: 1, cancelled: 6 };
    const bar = statusStack(by);
    expect(STACK_SERIES.reduce((sum, s) => sum + bar[s], 0)).toBe(17);
    expect(bar).toEqual({ succeeded: 7, failed: 1, cancelled: 6, open: 3 });
  });

  it("never label a version with an empty string or a lone slash", () => {
    expect(versionLabel("1.2.0", "b", "none")).toBe("1.2.0/b");
    expect(versionLabel("1.2.0", null, "none")).toBe("1.2.0");
    expect(versionLabel(null, null, "No version yet")).toBe("No version yet");
    expect(versionLabel("", "", "No version yet")).toBe("No version yet");
  });
});
