import { describe, expect, it } from "vitest";
import { returnPath, safeCallbackPath } from "./callback-path";

describe("the path signing in comes back to", () => {
  it("keeps paths of this site", () => {
    expect(safeCallbackPath("/en/join/abc.def")).toBe("/en/join/abc.def");
    expect(safeCallbackPath("/de/dashboard?tab=x#y")).toBe("/de/dashboard?tab=x#y");
  });

  it("refuses other origins, schemes, backslashes and control characters", () => {
    for (const bad of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "evil",
      "",
      "/a\\b",
      "/a\nb",
      "/\tevil",
      `/${"a".repeat(2_001)}`,
    ]) {
      expect(safeCallbackPath(bad), bad).toBeUndefined();
    }
    expect(safeCallbackPath(undefined)).toBeUndefined();
  });

  it("sends a signed-out visit back to the page it asked for, and never elsewhere", () => {
    expect(returnPath("/en/engine/jobs/123?tab=reviews", "/en/engine")).toBe("/en/engine/jobs/123?tab=reviews");
    for (const attempt of ["//evil.example/x", "https://evil.example/", "/\\evil.example", null]) {
      expect(returnPath(attempt, "/en/admin"), String(attempt)).toBe("/en/admin");
    }
  });
});
