import { z } from "zod";
import type { ReviewLabel } from "../types";
import type { Aggregates } from "./aggregates";
import { complaintPhrases } from "./aggregate";
import type { RawReview, RoutedReviews } from "./model";
import { SENTIMENT_LABELS } from "./sentiment";
import { CATEGORIES } from "./taxonomy";
import { topicsOfReview } from "./topics";
import { TOPICS, type Topic } from "./topic-vocabulary";

// Evidence (docs/pipelines.md, "Evidence: every number links to its reviews"): per-review labels of a
// run, and the filters over them that say which reviews a figure of the report counts.

const ZCategory = z.enum(CATEGORIES);
const POLARITY_COLUMNS = ["mentioned", "positive", "neutral", "negative"] as const;

/**
 * Which label rows a figure counts: every given condition holds (an empty filter is every review
 * read). `execution_id` names another run's rows (the previous run's figures of report.comparison);
 * without it the rows are the report's own run.
 */
export const ZEvidenceFilter = z
  .object({
    execution_id: z.uuid().optional(),
    kept: z.boolean().optional(),
    /** Reviews with text (a sentiment label); false: without. */
    has_text: z.boolean().optional(),
    sentiment: z.enum(SENTIMENT_LABELS).optional(),
    critical: z.boolean().optional(),
    /** Reviews mentioning the category, or whose first mention of it has this polarity. */
    category: z.object({ name: ZCategory, polarity: z.enum(POLARITY_COLUMNS).default("mentioned") }).optional(),
    /** Reviews with a routed issue of this severity (of the category, when given). */
    issue: z.object({ severity: z.enum(["critical", "high"]), category: ZCategory.optional() }).optional(),
    /** Reviews whose complaint about the category uses the phrase (one of the report's complaint phrases). */
    phrase: z.object({ category: ZCategory, phrase: z.string().min(1).max(200) }).optional(),
    /** Reviews that complain about the topic (topics.ts), as the report's topics count them. */
    topic: z.object({ topic: z.enum(TOPICS as [Topic, ...Topic[]]) }).optional(),
    language: z.string().min(1).max(20).optional(),
    /** Star rating from min to max (reviews without a valid rating never match). */
    rating: z.object({ min: z.number().int().min(1).max(5), max: z.number().int().min(1).max(5) }).optional(),
    month: z
      .string()
      .regex(/^\d{4}-\d{2}$/)
      .optional(),
    weekday_hour: z
      .object({ weekday: z.number().int().min(0).max(6), hour: z.number().int().min(0).max(23) })
      .optional(),
    /** Reviews of a place; `other`: of every place but this one. */
    place: z.object({ origin: z.string(), place_key: z.string(), other: z.boolean().default(false) }).optional(),
  })
  .strict();
export type EvidenceFilter = z.input<typeof ZEvidenceFilter>;

/** A filter's identity, whatever the order of its keys (the run it reads aside): the key of another run's looked-up figures. */
export function filterKey(filter: EvidenceFilter): string {
  const canonical = (v: unknown): unknown =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : v;
  const { execution_id: _run, ...conditions } = filter;
  return JSON.stringify(canonical(conditions));
}

/** The stored phrase key of a complaint phrase of a category. */
export const phraseKey = (category: string, phrase: string) => `${category}|${phrase}`;

/** The stored key of a complaint topic (in the same column as the phrase keys: no category holds a "|topic" name). */
export const topicKey = (topic: string) => `topic|${topic}`;

const has = (list: readonly string[], value: string) => list.includes(value);

/** Whether a label row is one of the reviews a filter describes (execution_id chooses the rows, it is not a condition). */
export function matchesFilter(row: ReviewLabel, f: EvidenceFilter): boolean {
  if (f.kept !== undefined && row.kept !== f.kept) return false;
  if (f.has_text !== undefined && (row.sentiment !== null) !== f.has_text) return false;
  if (f.sentiment !== undefined && row.sentiment !== f.sentiment) return false;
  if (f.critical !== undefined && row.critical !== f.critical) return false;
  if (f.category && !has(row[f.category.polarity ?? "mentioned"], f.category.name)) return false;
  if (f.issue) {
    const list = f.issue.severity === "critical" ? row.issue_critical : row.issue_high;
    if (f.issue.category ? !has(list, f.issue.category) : list.length === 0) return false;
  }
  if (f.phrase && !has(row.phrases, phraseKey(f.phrase.category, f.phrase.phrase))) return false;
  if (f.topic && !has(row.phrases, topicKey(f.topic.topic))) return false;
  if (f.language !== undefined && row.language !== f.language) return false;
  if (f.rating && (row.rating === null || row.rating < f.rating.min || row.rating > f.rating.max)) return false;
  if (f.month !== undefined && row.month !== f.month) return false;
  if (f.weekday_hour && (row.weekday !== f.weekday_hour.weekday || row.hour !== f.weekday_hour.hour)) return false;
  if (f.place) {
    const same = row.origin === f.place.origin && row.place_key === f.place.place_key;
    if (same === (f.place.other ?? false)) return false;
  }
  return true;
}

/** The figures report.comparison compares, and the reviews each one counts (also used for the previous run's rows). */
export const COMPARED_FILTERS: Record<
  "reviews" | "average_rating" | "positive_pct" | "negative_pct" | "critical_reviews",
  { filter: EvidenceFilter; of?: EvidenceFilter }
> = {
  reviews: { filter: { kept: true } },
  average_rating: { filter: { rating: { min: 1, max: 5 } } },
  positive_pct: { filter: { sentiment: "positive" }, of: { has_text: true } },
  negative_pct: { filter: { sentiment: "negative" }, of: { has_text: true } },
  critical_reviews: { filter: { critical: true } },
};

const byId = (a: ReviewLabel, b: ReviewLabel) => (a.review_id < b.review_id ? -1 : a.review_id > b.review_id ? 1 : 0);

/**
 * One label row per distinct review id read, sorted by id (the order the evidence pages list them
 * in): what the run made of each review, counted exactly as aggregate() counts it (categories by
 * the polarity of their first mention and only for texts, critical only for texts, issues as routed,
 * complaint topics as topicsOfReview finds them, and, for results written before topics, complaint
 * phrases among the aggregates' top phrases). Reviews normalize dropped are kept: false.
 */
export function labelRows(
  routed: RoutedReviews,
  read: readonly Pick<RawReview, "id" | "origin" | "placeKey">[],
  phrases: Aggregates["complaint_phrases"] = {},
): ReviewLabel[] {
  const reviews = new Map(routed.reviews.map((r) => [r.id, r]));
  const issues = new Map<string, { critical: string[]; high: string[] }>();
  for (const issue of routed.issues) {
    if (issue.severity !== "critical" && issue.severity !== "high") continue;
    let entry = issues.get(issue.review_id);
    if (!entry) issues.set(issue.review_id, (entry = { critical: [], high: [] }));
    entry[issue.severity].push(issue.category);
  }
  const top = new Map(
    Object.entries(phrases ?? {}).map(([category, list]) => [category, new Set(list.map((p) => p.phrase))]),
  );
  const seen = new Set<string>();
  const rows: ReviewLabel[] = [];
  for (const raw of read) {
    if (seen.has(raw.id)) continue;
    seen.add(raw.id);
    const place = { origin: raw.origin ?? null, place_key: raw.placeKey ?? null };
    const r = reviews.get(raw.id);
    const row: ReviewLabel = {
      review_id: raw.id,
      kept: r !== undefined,
      sentiment: null,
      critical: false,
      language: r?.language ?? null,
      rating: r?.rating ?? null,
      month: null,
      weekday: null,
      hour: null,
      mentioned: [],
      positive: [],
      neutral: [],
      negative: [],
      issue_critical: issues.get(raw.id)?.critical ?? [],
      issue_high: issues.get(raw.id)?.high ?? [],
      phrases: [],
      ...place,
    };
    rows.push(row);
    if (!r) continue;
    if (r.publishedAt) {
      row.month = r.publishedAt.toISOString().slice(0, 7);
      row.weekday = (r.publishedAt.getUTCDay() + 6) % 7;
      row.hour = r.publishedAt.getUTCHours();
    }
    if (!r.text) continue;
    row.sentiment = r.label;
    row.critical = r.critical;
    const first = new Set<string>();
    for (const m of r.mentions) {
      if (first.has(m.category)) continue;
      first.add(m.category);
      row.mentioned.push(m.category);
      row[m.polarity].push(m.category);
      const wanted = m.polarity === "negative" ? top.get(m.category) : undefined;
      if (wanted?.size)
        for (const p of complaintPhrases(m.sentence, r.language))
          if (wanted.has(p)) row.phrases.push(phraseKey(m.category, p));
    }
    for (const topic of new Set(topicsOfReview(r).map((t) => t.topic))) row.phrases.push(topicKey(topic));
  }
  return rows.sort(byId);
}
