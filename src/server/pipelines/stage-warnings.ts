/**
 * The warnings pipeline stages record, written and read in one place. The API keeps them as English
 * sentences (stage_metrics.*.warnings are strings); pages translate the ones they recognise with
 * `parseWarning` and show any other as it is.
 */
export const NO_ITEMS_WARNING = "no_reviews";

const TEMPLATES = {
  duplicates: { make: (n: number) => `${n} duplicate reviews dropped`, re: /^(\d+) duplicate reviews dropped$/ },
  empty: {
    make: (n: number) => `${n} reviews without text or rating dropped`,
    re: /^(\d+) reviews without text or rating dropped$/,
  },
  badRatings: {
    make: (n: number) => `${n} ratings outside 1..5 ignored`,
    re: /^(\d+) ratings outside 1\.\.5 ignored$/,
  },
  unknownLanguage: {
    make: (n: number) => `${n} texts in no supported language (scored neutral)`,
    re: /^(\d+) texts in no supported language \(scored neutral\)$/,
  },
} as const;

export type CountWarning = keyof typeof TEMPLATES;
export const warning = (kind: CountWarning, count: number) => TEMPLATES[kind].make(count);

const MODEL_RE =
  /^(\d+) of (\d+) texts labelled by the language model \((\d+) from its cache, (\d+) requests, (\d+) failed: the rules' labels kept for those\); it disagrees with the rules on the sentiment of (\d+) and the critical flag of (\d+)$/;
export const modelWarning = (v: {
  byModel: number;
  total: number;
  cached: number;
  requests: number;
  failed: number;
  sentiment: number;
  critical: number;
}) =>
  `${v.byModel} of ${v.total} texts labelled by the language model (${v.cached} from its cache, ${v.requests} requests, ${v.failed} failed: the rules' labels kept for those); it disagrees with the rules on the sentiment of ${v.sentiment} and the critical flag of ${v.critical}`;

const WRITER_PREFIX = "language-model writer failed, deterministic text used: ";
export const writerFailedWarning = (message: string) => `${WRITER_PREFIX}${message.slice(0, 200)}`;

export type ParsedWarning =
  | { key: CountWarning | "noItems"; values: { count: number } }
  | {
      key: "model";
      values: {
        byModel: number;
        total: number;
        cached: number;
        requests: number;
        failed: number;
        sentiment: number;
        critical: number;
      };
    }
  | { key: "writerFailed"; values: { count: number }; detail: string };

/** A stored warning as a message key and its values, or null for one this version does not know. */
export function parseWarning(text: string): ParsedWarning | null {
  if (text === NO_ITEMS_WARNING) return { key: "noItems", values: { count: 0 } };
  for (const [key, t] of Object.entries(TEMPLATES) as [CountWarning, (typeof TEMPLATES)[CountWarning]][]) {
    const m = t.re.exec(text);
    if (m) return { key, values: { count: Number(m[1]) } };
  }
  const m = MODEL_RE.exec(text);
  if (m) {
    const [byModel, total, cached, requests, failed, sentiment, critical] = m.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return { key: "model", values: { byModel, total, cached, requests, failed, sentiment, critical } };
  }
  if (text.startsWith(WRITER_PREFIX))
    return { key: "writerFailed", values: { count: 0 }, detail: text.slice(WRITER_PREFIX.length) };
  return null;
}
