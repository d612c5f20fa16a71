import { describe, expect, it } from "vitest";
import { formatsFor } from "./format";

// Intl writes a narrow or plain no-break space in "58,3 %"; compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("formatsFor", () => {
  it.each([
    ["en", "6,030", "1,234,567", "60,300"],
    ["de", "6.030", "1.234.567", "60.300"],
    // Spanish (CLDR, RAE) leaves four-digit numbers ungrouped and groups from five digits on.
    ["es", "6030", "1.234.567", "60.300"],
  ])("%s groups thousands", (locale, four, seven, five) => {
    const f = formatsFor(locale);
    expect(f.number(6030)).toBe(four);
    expect(f.number(1234567)).toBe(seven);
    expect(f.number(60300)).toBe(five);
  });

  it.each([
    ["en", "58.3%", "100%", "4.23"],
    ["es", "58,3 %", "100 %", "4,23"],
    ["de", "58,3 %", "100 %", "4,23"],
  ])("%s writes shares and decimals one way", (locale, share, whole, decimal) => {
    const f = formatsFor(locale);
    expect(plain(f.share(0.583))).toBe(share);
    expect(plain(f.percent(58.3))).toBe(share);
    expect(plain(f.percent(58.333))).toBe(share);
    expect(plain(f.share(1))).toBe(whole);
    expect(f.number(4.2345)).toBe(decimal);
  });

  it.each([
    ["en", "Mar 2025", "Mar 14, 2025"],
    ["es", "mar 2025", "14 mar 2025"],
    ["de", "März 2025", "14.03.2025"],
  ])("%s writes months and days in words of its own", (locale, month, day) => {
    const f = formatsFor(locale);
    expect(f.month("2025-03")).toBe(month);
    expect(f.month(new Date(Date.UTC(2025, 2, 31, 23, 59)))).toBe(month);
    expect(f.day("2025-03-14")).toBe(day);
  });

  it("auto writes what a chart axis or a cell shows and leaves other text alone", () => {
    const de = formatsFor("de");
    expect(de.auto("2025-03")).toBe("März 2025");
    expect(de.auto(6030)).toBe("6.030");
    expect(de.auto("6030")).toBe("6030");
    expect(de.auto("Lieferung")).toBe("Lieferung");
    expect(de.auto(null)).toBe("");
    expect(de.auto("2025-13")).toBe("2025-13");
    expect(de.auto("2025-03-14T10:00:00.000Z")).toBe("14.03.2025, 10:00");
  });

  it("keeps a bad date as it came instead of writing 'Invalid Date'", () => {
    expect(formatsFor("en").dateTime("not a date")).toBe("not a date");
  });
});
