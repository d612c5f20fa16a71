import type { Aggregates, CategoryStat } from "../aggregates";
import { COMPARED_FILTERS, type EvidenceFilter } from "../evidence";
import type { Claim, Cite } from "./citations";
import type { ComparedMetric } from "./comparison";
import type { Topic } from "../topic-vocabulary";

// The figures the narrative prints, each with its ref and the reviews it counts: a count carries the
// reviews counted, a share the reviews of its numerator (and its base in `of`), an average the
// reviews averaged, a month, clock time or date the reviews of that time.

type Totals = Aggregates["totals"];
type Month = Aggregates["timeline"][number];
export type Figure = [ref: string, claim: Claim];

const TEXTS: EvidenceFilter = { has_text: true };
const RATED = COMPARED_FILTERS.average_rating.filter;

/** The unit of each compared figure. */
const COMPARED_UNITS: Record<ComparedMetric["metric"], string> = {
  reviews: "reviews",
  average_rating: "stars",
  positive_pct: "%",
  negative_pct: "%",
  critical_reviews: "reviews",
};

const compared = (metric: ComparedMetric["metric"], value: number, executionId?: string): Claim => {
  const run = executionId ? { execution_id: executionId } : {};
  const { filter, of } = COMPARED_FILTERS[metric];
  return {
    value,
    unit: COMPARED_UNITS[metric],
    filter: { ...filter, ...run },
    ...(of ? { of: { ...of, ...run } } : {}),
  };
};

const category = (c: string, polarity?: "positive" | "negative"): EvidenceFilter => ({
  category: { name: c as CategoryStat["category"], ...(polarity ? { polarity } : {}) },
});

/** Builders of every figure the narrative may print (pure: the same data, the same figure). */
export const FIGURES = {
  reviews: (t: Totals): Figure => ["reviews", compared("reviews", t.reviews)],
  reviewsIn: (t: Totals): Figure => ["reviews_in", { value: t.reviews_in, unit: "reviews", filter: {} }],
  withText: (t: Totals): Figure => ["with_text", { value: t.with_text, unit: "reviews", filter: TEXTS }],
  averageRating: (value: number): Figure => ["average_rating", compared("average_rating", value)],
  share: (label: "positive" | "negative" | "mixed", t: Totals): Figure => [
    `${label}_pct`,
    { value: t[`${label}_pct`], unit: "%", filter: { sentiment: label }, of: TEXTS },
  ],
  texts: (label: "positive" | "neutral" | "negative" | "mixed", t: Totals): Figure => [
    `sentiment.${label}`,
    { value: t[label] ?? 0, unit: "reviews", filter: { sentiment: label } },
  ],
  averageCompound: (t: Totals): Figure => [
    "average_compound",
    { value: t.average_compound, unit: "score", filter: TEXTS },
  ],
  criticalReviews: (t: Totals): Figure => ["critical_reviews", compared("critical_reviews", t.critical_reviews)],
  criticalIssues: (t: Totals): Figure => [
    "critical_issues",
    { value: t.critical_issues, unit: "issues", filter: { issue: { severity: "critical" } } },
  ],
  language: (l: { language: string; count: number }): Figure => [
    `language.${l.language}`,
    { value: l.count, unit: "reviews", filter: { language: l.language } },
  ],
  stars: (min: number, max: number, count: number): Figure => [
    `stars.${min}-${max}`,
    { value: count, unit: "reviews", filter: { rating: { min, max } } },
  ],
  mentions: (c: string, mentions: number): Figure => [
    `category.${c}.mentions`,
    { value: mentions, unit: "mentions", filter: category(c) },
  ],
  mentionShare: (c: Pick<CategoryStat, "category" | "percentage">): Figure => [
    `category.${c.category}.percentage`,
    { value: c.percentage, unit: "%", filter: category(c.category), of: TEXTS },
  ],
  polarShare: (c: string, polarity: "positive" | "negative", value: number): Figure => [
    `category.${c}.${polarity}_pct`,
    { value, unit: "%", filter: category(c, polarity), of: category(c) },
  ],
  negativeMentions: (c: string, negative: number): Figure => [
    `category.${c}.negative`,
    { value: negative, unit: "mentions", filter: category(c, "negative") },
  ],
  /** High and critical issues of a category (issues: one per review and category). */
  seriousIssues: (c: string, issues: number): Figure => [
    `category.${c}.serious_issues`,
    { value: issues, unit: "issues", filter: { issue: { severity: "high", category: c as CategoryStat["category"] } } },
  ],
  /** A risk score is computed over the category's mentions: those are its reviews. */
  risk: (c: string, score: number): Figure => [
    `category.${c}.risk`,
    { value: score, unit: "risk", filter: category(c) },
  ],
  phrase: (c: string, index: number, p: { phrase: string; reviews: number }): Figure => [
    `phrase.${c}.${index}`,
    {
      value: p.reviews,
      unit: "reviews",
      filter: { phrase: { category: c as CategoryStat["category"], phrase: p.phrase } },
    },
  ],
  /** The reviews that complain about a topic (topics.ts). */
  topic: (topic: string, reviews: number): Figure => [
    `topic.${topic}`,
    { value: reviews, unit: "reviews", filter: { topic: { topic: topic as Topic } } },
  ],
  month: (m: Pick<Month, "month" | "reviews">): Figure => [
    `month.${m.month}`,
    { value: m.reviews, unit: "month", text: m.month, filter: { month: m.month } },
  ],
  monthReviews: (month: string, reviews: number): Figure => [
    `month.${month}.reviews`,
    { value: reviews, unit: "reviews", filter: { month } },
  ],
  monthNegative: (month: string, negative: number): Figure => [
    `month.${month}.negative`,
    { value: negative, unit: "reviews", filter: { month, sentiment: "negative" } },
  ],
  monthRating: (month: string, value: number): Figure => [
    `month.${month}.average_rating`,
    { value, unit: "stars", filter: { month, ...RATED } },
  ],
  monthCompound: (month: string, value: number): Figure => [
    `month.${month}.average_compound`,
    { value, unit: "score", filter: { month, ...TEXTS } },
  ],
  peakTime: (p: { weekday: number; hour: number; count: number }): Figure => [
    "peak.time",
    {
      value: p.count,
      unit: "time",
      text: `${p.hour}:00`,
      filter: { weekday_hour: { weekday: p.weekday, hour: p.hour } },
    },
  ],
  peakReviews: (p: { weekday: number; hour: number; count: number }): Figure => [
    "peak.reviews",
    { value: p.count, unit: "reviews", filter: { weekday_hour: { weekday: p.weekday, hour: p.hour } } },
  ],
  otherPlaces: (named: { origin?: string; place_key: string }, others: number): Figure => [
    "places.other",
    {
      value: others,
      unit: "places",
      filter: { place: { origin: named.origin ?? "", place_key: named.place_key, other: true } },
    },
  ],
  /** The figures of report.comparison: now (this run's own figure) and before (the previous run's rows). */
  now: (metric: ComparedMetric["metric"], value: number): Figure => [metric, compared(metric, value)],
  before: (metric: ComparedMetric["metric"], value: number, executionId: string): Figure => [
    `previous.${metric}`,
    compared(metric, value, executionId),
  ],
  previousRun: (executionId: string, date: string, reviews: number): Figure => [
    "previous.run",
    {
      value: reviews,
      unit: "date",
      text: date,
      filter: { ...COMPARED_FILTERS.reviews.filter, execution_id: executionId },
    },
  ],
};

/** Cites a figure: `cite(...FIGURES.reviews(t))` written shorter. */
export const citer = (cite: Cite) => (figure: Figure) => cite(figure[0], figure[1]);
