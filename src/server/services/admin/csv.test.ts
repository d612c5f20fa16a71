import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./csv";

describe("csv", () => {
  it("quotes commas, quotes and line breaks and doubles inner quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('Team "A", B')).toBe('"Team ""A"", B"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\rhere")).toBe('"cr\rhere"');
  });

  it("guards cells a spreadsheet would run as formulas", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    for (const start of ["+1", "-1+2", "@SUM(A1)", "\tx"]) expect(csvCell(start)).toBe(`'${start}`);
    expect(csvCell("\rx")).toBe('"\'\rx"');
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("writes numbers, dates and nulls plainly", () => {
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05.000Z");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(
      toCsv(
        ["a", "b"],
        [
          [1, "x,y"],
          [null, "z"],
        ],
      ),
    ).toBe('a,b\r\n1,"x,y"\r\n,z\r\n');
  });
});
