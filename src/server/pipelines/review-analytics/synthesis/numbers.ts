/** Guards "every number in the text comes from the data" for any writer. */

const NUMBER = /(?<![\p{L}\d])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\p{L}\d])-?\d+(?:\.\d+)?/gu;

/** Where the numbers of a text are (characters [start, end)), each normalised to a plain decimal. */
export function numberSpans(text: string): { start: number; end: number; value: string }[] {
  return [...text.matchAll(NUMBER)].map((m) => ({ start: m.index, end: m.index + m[0].length, value: normal(m[0].replace(/,/g, "")) }));
}

/** Numbers as they appear in a text ("3.9", "1,234", "48%"), normalised to plain decimals. */
export function numbersIn(text: string): string[] {
  return numberSpans(text).map((s) => s.value);
}

function normal(n: string): string {
  const v = Number(n);
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
}

/** A value as written and in its usual roundings (whole, one and two decimals), normalised. */
function roundings(v: number): string[] {
  return [normal(String(v)), normal(String(Math.round(v))), normal(v.toFixed(1)), normal(v.toFixed(2))];
}

/** Whether a written number (normalised, as numberSpans gives it) is the value or one of its usual roundings. */
export function sameNumber(value: number, written: string): boolean {
  return roundings(value).includes(written);
}

/**
 * Every number the facts hold (recursively), plus its usual roundings, plus the calendar parts of
 * its dates (years, months, days), so "2026-03" or "48.2%" in a text can be matched back to the data.
 */
export function allowedNumbers(facts: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === "number" && Number.isFinite(v)) for (const r of roundings(v)) out.add(r);
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
