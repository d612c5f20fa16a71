/** Guards "every number in the text comes from the data" for any writer, and writes numbers per language. */

/** How a language writes numbers: the thousands and decimal marks, from how many digits it groups, the percent sign. */
export interface NumberStyle {
  group: "," | ".";
  decimal: "." | ",";
  /** The smallest whole number written with a thousands mark (Spanish leaves four digits alone). */
  groupFrom: number;
  /** What follows a share ("%" in English; a no-break space and "%" in Spanish and German). */
  percent: string;
  /** The language's BCP 47 tag, for the names of months ("January 2026", "enero de 2026", "Januar 2026"). */
  locale: string;
}

/** English: 12,345 and 4.1 and 48%. */
export const EN_NUMBERS: NumberStyle = { group: ",", decimal: ".", groupFrom: 1000, percent: "%", locale: "en" };

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const monthNames = new Map<string, Intl.DateTimeFormat>();

/** A calendar month ("2026-03") as the language names it ("March 2026", "marzo de 2026", "März 2026"); anything else as it is. */
export function formatMonth(value: string, style: NumberStyle = EN_NUMBERS): string {
  const m = MONTH.exec(value);
  if (!m) return value;
  let format = monthNames.get(style.locale);
  if (!format)
    monthNames.set(
      style.locale,
      (format = new Intl.DateTimeFormat(style.locale, { month: "long", year: "numeric", timeZone: "UTC" })),
    );
  return format.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)));
}

/** A number as a language writes it: whole numbers grouped, decimals as they are (never grouped), no rounding. */
export function formatNumber(value: number, style: NumberStyle = EN_NUMBERS): string {
  if (!Number.isInteger(value)) return String(value).replace(".", style.decimal);
  const digits = String(Math.abs(value));
  const grouped = Math.abs(value) >= style.groupFrom ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, style.group) : digits;
  return value < 0 ? `-${grouped}` : grouped;
}

// Under the u flag only syntax characters may be escaped: "." is, "," is not.
const esc = (c: string) => (c === "." ? "\\." : c);
const patterns = new Map<string, RegExp>();
function numberPattern(style: NumberStyle): RegExp {
  const key = style.group + style.decimal;
  let re = patterns.get(key);
  if (!re) {
    const [g, d] = [esc(style.group), esc(style.decimal)];
    re = new RegExp(`(?<![\\p{L}\\d])-?\\d{1,3}(?:${g}\\d{3})+(?:${d}\\d+)?|(?<![\\p{L}\\d])-?\\d+(?:${d}\\d+)?`, "gu");
    patterns.set(key, re);
  }
  return re;
}

/** Where the numbers of a text are (characters [start, end)), each normalised to a plain decimal. */
export function numberSpans(
  text: string,
  style: NumberStyle = EN_NUMBERS,
): { start: number; end: number; value: string }[] {
  return [...text.matchAll(numberPattern(style))].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    value: normal(m[0].split(style.group).join("").replace(style.decimal, ".")),
  }));
}

/** Numbers as they appear in a text ("3.9", "1,234", "48%"; "3,9", "1.234" in Spanish and German), normalised to plain decimals. */
export function numbersIn(text: string, style: NumberStyle = EN_NUMBERS): string[] {
  return numberSpans(text, style).map((s) => s.value);
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
export function inventedNumbers(text: string, allowed: Set<string>, style: NumberStyle = EN_NUMBERS): string[] {
  // Dates are written as 2026-03 or 2026-03-14: read their parts as separate numbers.
  return numbersIn(text.replace(/(\d)-(?=\d)/g, "$1 "), style).filter((n) => !allowed.has(n));
}
