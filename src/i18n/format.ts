// The one way the product writes numbers, shares, dates and months for people (docs/i18n.md,
// "Numbers and dates"). Pure functions of the page's locale, so server components, client components,
// chart axes and tooltips write "6,030" / "6.030", "58.3%" / "58,3 %" and "Mar 2025" / "März 2025"
// alike. CSV and the APIs keep machine-readable values and never pass through here.

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** The formatters of one locale; build once per render with {@link formatsFor}. */
export interface Formats {
  readonly locale: string;
  /** A count or measure with the locale's grouping ("6,030", "6.030"); at most `digits` decimals (default 2). */
  number(value: number, digits?: number): string;
  /** A share given as a fraction (0.583) in the locale's one percent format ("58.3%", "58,3 %"). */
  share(fraction: number, digits?: number): string;
  /** A share given in percent points (58.3), written as {@link Formats.share} writes it. */
  percent(points: number, digits?: number): string;
  /** A calendar month ("2025-03" or a Date, read in UTC) as "Mar 2025", "mar 2025", "März 2025". */
  month(value: string | Date): string;
  /** A calendar day ("2025-03-14" or a Date, read in UTC) in the locale's medium style. */
  day(value: string | Date): string;
  /** An instant with date and time, in `timeZone` (default UTC: the server cannot know the visitor's zone). */
  dateTime(value: string | Date, timeZone?: string): string;
  /**
   * A value as a chart axis, a table cell or a tooltip shows it: months, days and instants written
   * as dates, numbers grouped, anything else unchanged.
   */
  auto(value: unknown): string;
}

const cache = new Map<string, Formats>();

/** The formatters of `locale` (cached: Intl formatters are costly to build). */
export function formatsFor(locale: string): Formats {
  let f = cache.get(locale);
  if (!f) {
    f = build(locale);
    cache.set(locale, f);
  }
  return f;
}

function build(locale: string): Formats {
  const numbers = new Map<number, Intl.NumberFormat>();
  const shares = new Map<number, Intl.NumberFormat>();
  const numberFormat = (digits: number) => {
    let nf = numbers.get(digits);
    if (!nf) numbers.set(digits, (nf = new Intl.NumberFormat(locale, { maximumFractionDigits: digits })));
    return nf;
  };
  const shareFormat = (digits: number) => {
    let nf = shares.get(digits);
    if (!nf)
      shares.set(digits, (nf = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: digits })));
    return nf;
  };
  const monthFormat = new Intl.DateTimeFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" });
  const dayFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const zoned = new Map<string, Intl.DateTimeFormat>();
  const dateTimeFormat = (timeZone: string) => {
    let df = zoned.get(timeZone);
    if (!df)
      zoned.set(
        timeZone,
        (df = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone })),
      );
    return df;
  };

  const formats: Formats = {
    locale,
    number: (value, digits = 2) => numberFormat(digits).format(value),
    share: (fraction, digits = 1) => shareFormat(digits).format(fraction),
    percent: (points, digits = 1) => shareFormat(digits).format(points / 100),
    month(value) {
      if (value instanceof Date) return monthFormat.format(value);
      const m = MONTH.exec(value);
      return m ? monthFormat.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))) : value;
    },
    day(value) {
      if (value instanceof Date) return dayFormat.format(value);
      const d = DAY.exec(value);
      return d ? dayFormat.format(new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])))) : value;
    },
    dateTime(value, timeZone = "UTC") {
      const date = value instanceof Date ? value : new Date(value);
      return Number.isNaN(date.getTime()) ? String(value) : dateTimeFormat(timeZone).format(date);
    },
    auto(value) {
      if (typeof value === "number") return Number.isFinite(value) ? formats.number(value) : String(value);
      if (value instanceof Date) return formats.dateTime(value);
      if (typeof value !== "string") return value === null || value === undefined ? "" : String(value);
      if (MONTH.test(value)) return formats.month(value);
      if (DAY.test(value)) return formats.day(value);
      if (INSTANT.test(value)) return formats.dateTime(value);
      return value;
    },
  };
  return formats;
}
