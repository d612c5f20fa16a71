/** Guards "every number in the text comes from the data" for any writer. */

/** Numbers as they appear in a text ("3.9", "1,234", "48%"), normalised to plain decimals. */
export function numbersIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\p{L}\d])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\p{L}\d])-?\d+(?:\.\d+)?/gu)) {
    out.push(normal(m[0].replace(/,/g, "")));
  }
  return out;
}

function normal(n: string): string {
  const v = Number(n);
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
}

/**
 * Every number the facts hold (recursively), plus its usual roundings, plus the calendar parts of
 * its dates (years, months, days), so "2026-03" or "48.2%" in a text can be matched back to the data.
 */
export function allowedNumbers(facts: unknown): Set<string> {
  const out = new Set<string>();
  const addNumber = (v: number) => {
    out.add(normal(String(v)));
    out.add(normal(String(Math.round(v))));
    out.add(normal(v.toFixed(1)));
    out.add(normal(v.toFixed(2)));
  };
  const walk = (v: unknown) => {
    if (typeof v === "number" && Number.isFinite(v)) addNumber(v);
    else if (typeof v === "string") for (const n of numbersIn(v.replace(/-(?=\d)/g, " "))) out.add(n);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(facts);
  return out;
}

/** The numbers of a text that the facts do not contain (empty when the text is faithful). */
export function inventedNumbers(text: string, allowed: Set<string>): string[] {
  // Dates are written as 2026-03 or 2026-03-14: read their parts as separate numbers.
  return numbersIn(text.replace(/(\d)-(?=\d)/g, "$1 ")).filter((n) => !allowed.has(n));
}
