import { describe, expect, it } from "vitest";
import { clampPage, pageWindow } from "./page-window";

describe("pageWindow", () => {
  it("shows every page when there are few", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });
  it("keeps the first, the last and two neighbours, with gaps between", () => {
    expect(pageWindow(40, 326)).toEqual([1, "gap", 38, 39, 40, 41, 42, "gap", 326]);
    expect(pageWindow(1, 326)).toEqual([1, 2, 3, "gap", 326]);
    expect(pageWindow(326, 326)).toEqual([1, "gap", 324, 325, 326]);
  });
  it("writes a number instead of a gap that would hide one page", () => {
    expect(pageWindow(4, 10)).toEqual([1, 2, 3, 4, 5, 6, "gap", 10]);
    expect(pageWindow(7, 10)).toEqual([1, "gap", 5, 6, 7, 8, 9, 10]);
  });
});

describe("clampPage", () => {
  it("keeps a typed page within the pages there are", () => {
    expect(clampPage("12", 326)).toBe(12);
    expect(clampPage("9999", 326)).toBe(326);
    expect(clampPage("0", 326)).toBe(1);
    expect(clampPage("abc", 326)).toBe(1);
    expect(clampPage("2.7", 5)).toBe(2);
  });
});
