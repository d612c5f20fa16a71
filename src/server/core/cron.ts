// Five-field cron expressions (minute hour day-of-month month day-of-week), read in UTC, for the review
// engine's schedules. Each field takes `*`, a number, a range `a-b`, a step `*/n` or `a-b/n`, and
// lists of these; months and weekdays also by their English three-letter names; weekday 0 and 7 are
// Sunday. As in classic cron, when both day fields are restricted a day matching either one runs.
// `@hourly`, `@daily`, `@weekly`, `@monthly` and `@yearly` stand for their usual expressions.

const MACROS: Record<string, string> = {
  "@hourly": "0 * * * *",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@weekly": "0 0 * * 0",
  "@monthly": "0 0 1 * *",
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
};
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: string[];
  namesFrom?: number;
}
const FIELDS: FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS, namesFrom: 1 },
  { name: "day of week", min: 0, max: 7, names: DAYS, namesFrom: 0 },
];

/** A parsed expression: the allowed values of each field. */
export interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Whether the day-of-month and day-of-week fields were restricted (not `*`). */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

export class CronError extends Error {}

function value(text: string, f: FieldSpec): number {
  const named = f.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (f.namesFrom ?? 0);
  if (!/^\d{1,2}$/.test(text)) throw new CronError(`${f.name}: "${text}" is not a number`);
  const n = Number(text);
  if (n < f.min || n > f.max) throw new CronError(`${f.name}: ${n} is outside ${f.min}-${f.max}`);
  return n;
}

function field(text: string, f: FieldSpec): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(",")) {
    const [range, stepText, extra] = part.split("/");
    if (extra !== undefined || range === undefined || range === "")
      throw new CronError(`${f.name}: "${part}" is not a value, range or step`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1 || step > f.max || !/^\d+$/.test(stepText ?? "1"))
      throw new CronError(`${f.name}: step "${stepText}" is not a whole number from 1`);
    let lo: number;
    let hi: number;
    if (range === "*") [lo, hi] = [f.min, f.max];
    else if (range.includes("-")) {
      const [a, b, more] = range.split("-");
      if (more !== undefined || !a || !b) throw new CronError(`${f.name}: "${range}" is not a range`);
      [lo, hi] = [value(a, f), value(b, f)];
      if (lo > hi) throw new CronError(`${f.name}: ${range} runs backwards`);
    } else {
      lo = value(range, f);
      hi = stepText === undefined ? lo : f.max;
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** Parses an expression; throws CronError naming the field at fault. */
export function parseCron(expression: string): Cron {
  const text = expression.trim();
  const expanded = MACROS[text.toLowerCase()] ?? text;
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5)
    throw new CronError(`expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`);
  const [mi, h, d, mo, w] = parts.map((p, i) => field(p, FIELDS[i] as FieldSpec)) as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (w.has(7)) w.add(0);
  return {
    minutes: mi,
    hours: h,
    days: d,
    months: mo,
    weekdays: w,
    daysRestricted: parts[2] !== "*",
    weekdaysRestricted: parts[4] !== "*",
  };
}

function dayMatches(c: Cron, t: Date): boolean {
  const dom = c.days.has(t.getUTCDate());
  const dow = c.weekdays.has(t.getUTCDay());
  if (c.daysRestricted && c.weekdaysRestricted) return dom || dow;
  return dom && dow;
}

/**
 * The first minute strictly after `after` that the expression names (UTC), or null when none comes
 * within five years (e.g. "0 0 31 2 *"). Skips whole months, days and hours that cannot match.
 */
export function nextCronTime(c: Cron, after: Date): Date | null {
  const t = new Date(after.getTime());
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  const limit = after.getTime() + 5 * 366 * 86_400_000;
  while (t.getTime() <= limit) {
    if (!c.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!dayMatches(c, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!c.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
      continue;
    }
    if (!c.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
      continue;
    }
    return t;
  }
  return null;
}
