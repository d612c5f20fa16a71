import type { Aggregates, CategoryStat, Quote, TopicStat } from "./aggregates";
import type { RoutedReviews, Severity } from "./model";
import type { SentimentLabel } from "./sentiment";
import { CATEGORIES, type Category } from "./taxonomy";
import type { Language } from "./language";
import { valenceOf } from "./sentiment";
import { excerpt, fold, tokenize } from "./text";
import { PHRASE_STOPWORDS } from "./phrase-stopwords";
import { topicsOfReview } from "./topics";
import { TOPIC_VOCABULARY, TOPICS, type Topic } from "./topic-vocabulary";
import type { StageResult } from "../types";

const round1 = (n: number) => Math.round(n * 10) / 10;
const round3 = (n: number) => Math.round(n * 1000) / 1000;
const pct = (part: number, whole: number) => (whole ? round1((part / whole) * 100) : 0);
const SEVERITY_RANK: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3 };
const QUOTES_PER_SIDE = 3;
/** Complaint topics kept per category, and quotes kept per topic. */
const TOPICS_PER_CATEGORY = 5;
const QUOTES_PER_TOPIC = 2;
/** Review ids kept as the evidence of a figure (the report links to them). */
export const EVIDENCE_IDS = 20;

/** The distinct two-word phrases of content words (function words and words under 3 letters left out). */
export function contentBigrams(t: readonly string[]): Set<string> {
  const own = new Set<string>();
  for (let i = 0; i + 1 < t.length; i++) {
    const a = t[i] as string;
    const b = t[i + 1] as string;
    if (a.length < 3 || b.length < 3 || PHRASE_STOPWORDS.has(a) || PHRASE_STOPWORDS.has(b)) continue;
    own.add(`${a} ${b}`);
  }
  return own;
}

/**
 * The two-word phrases of a complaint (a negative mention's sentence) that carry it: one of their
 * words scores negative ("cold food", "extrem laut"). None for a text in no supported language.
 */
export function complaintPhrases(sentence: string, language: string): string[] {
  if (language === "unknown") return [];
  return [...contentBigrams(tokenize(sentence))].filter((phrase) =>
    phrase.split(" ").some((w) => valenceOf(fold(w, language), language as Language) <= -1),
  );
}

/** Whether a mention of this polarity may be quoted from a review with this label. */
export function quoteAgrees(label: SentimentLabel, polarity: "positive" | "negative"): boolean {
  return label === "mixed" || label === polarity;
}

/** Keeps the most telling quotes: strongest score first, then the shortest, then the id (stable). */
function offerQuote(
  list: (Quote & { score: number })[],
  quote: Quote & { score: number },
  sign: 1 | -1,
  keep = QUOTES_PER_SIDE,
) {
  if (list.some((q) => q.text === quote.text)) return;
  list.push(quote);
  list.sort(
    (a, b) => sign * (b.score - a.score) || a.text.length - b.text.length || a.review_id.localeCompare(b.review_id),
  );
  if (list.length > keep) list.pop();
}

/**
 * Stage 4: the figures the dashboard and the report are made of: rating distribution, sentiment and
 * categories per month, weekday x hour, top two-word phrases, issues per team, quotes per category.
 */
export function aggregate(input: RoutedReviews, reviewsIn: number): StageResult<Aggregates> {
  const { reviews, issues } = input;
  const ratings = [0, 0, 0, 0, 0];
  let ratingSum = 0;
  let rated = 0;
  let withText = 0;
  let compoundSum = 0;
  const labels = { positive: 0, neutral: 0, negative: 0, mixed: 0 };
  let criticalReviews = 0;
  const languages = new Map<string, number>();
  const months = new Map<
    string,
    {
      reviews: number;
      ratingSum: number;
      rated: number;
      compoundSum: number;
      positive: number;
      neutral: number;
      negative: number;
      mixed: number;
    }
  >();
  const catStats = new Map<Category, { mentions: number; positive: number; neutral: number; negative: number }>(
    CATEGORIES.map((c) => [c, { mentions: 0, positive: 0, neutral: 0, negative: 0 }]),
  );
  const catMonths = new Map<string, { mentions: number; negative: number }>();
  const weekdayHour = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  const phrases = new Map<string, { count: number; positive: number; negative: number }>();
  // Per topic, the reviews that name it (once per review) and its most telling sentences.
  const topics = new Map<Topic, { reviews: number; ids: string[]; quotes: (Quote & { score: number })[] }>(
    TOPICS.map((t) => [t, { reviews: 0, ids: [], quotes: [] }]),
  );
  const quotes = new Map<
    Category,
    { positive: (Quote & { score: number })[]; negative: (Quote & { score: number })[] }
  >(CATEGORIES.map((c) => [c, { positive: [], negative: [] }]));
  let from: Date | null = null;
  let to: Date | null = null;

  for (const r of reviews) {
    if (r.rating !== null) {
      ratings[r.rating - 1]!++;
      ratingSum += r.rating;
      rated++;
    }
    languages.set(r.language, (languages.get(r.language) ?? 0) + 1);
    const month = r.publishedAt ? r.publishedAt.toISOString().slice(0, 7) : null;
    if (r.publishedAt) {
      if (!from || r.publishedAt < from) from = r.publishedAt;
      if (!to || r.publishedAt > to) to = r.publishedAt;
      const weekday = (r.publishedAt.getUTCDay() + 6) % 7;
      weekdayHour[weekday]![r.publishedAt.getUTCHours()]!++;
    }
    if (month) {
      let m = months.get(month);
      if (!m)
        months.set(
          month,
          (m = { reviews: 0, ratingSum: 0, rated: 0, compoundSum: 0, positive: 0, neutral: 0, negative: 0, mixed: 0 }),
        );
      m.reviews++;
      if (r.rating !== null) {
        m.ratingSum += r.rating;
        m.rated++;
      }
      if (r.text) {
        m.compoundSum += r.compound;
        m[r.label]++;
      }
    }
    if (!r.text) continue;
    withText++;
    compoundSum += r.compound;
    labels[r.label]++;
    if (r.critical) criticalReviews++;
    const seen = new Set<Category>();
    for (const mention of r.mentions) {
      if (seen.has(mention.category)) continue;
      seen.add(mention.category);
      const s = catStats.get(mention.category)!;
      s.mentions++;
      s[mention.polarity]++;
      if (month) {
        const key = `${month}|${mention.category}`;
        const cm = catMonths.get(key) ?? { mentions: 0, negative: 0 };
        cm.mentions++;
        if (mention.polarity === "negative") cm.negative++;
        catMonths.set(key, cm);
      }
      // A quote is evidence only when the whole review agrees with it: praise from a positive or
      // mixed review, a complaint from a negative or mixed one (never praise inside a complaint).
      if (mention.polarity !== "neutral" && mention.score !== 0 && quoteAgrees(r.label, mention.polarity)) {
        const q = {
          review_id: r.id,
          text: excerpt(mention.sentence),
          rating: r.rating,
          language: r.language,
          score: mention.score,
        };
        offerQuote(quotes.get(mention.category)![mention.polarity], q, mention.polarity === "positive" ? 1 : -1);
      }
    }
    const named = new Set<Topic>();
    for (const hit of topicsOfReview(r)) {
      const t = topics.get(hit.topic)!;
      if (!named.has(hit.topic)) {
        named.add(hit.topic);
        t.reviews++;
        if (t.ids.length < EVIDENCE_IDS) t.ids.push(r.id);
      }
      const quote = {
        review_id: r.id,
        text: excerpt(hit.sentence),
        rating: r.rating,
        language: r.language,
        score: hit.score,
      };
      if (!t.quotes.some((q) => q.review_id === r.id)) offerQuote(t.quotes, quote, -1, QUOTES_PER_TOPIC);
    }
    // Two-word phrases of content words, counted once per review.
    for (const phrase of contentBigrams(r.tokens)) {
      const p = phrases.get(phrase) ?? { count: 0, positive: 0, negative: 0 };
      p.count++;
      if (r.label === "positive") p.positive++;
      if (r.label === "negative") p.negative++;
      phrases.set(phrase, p);
    }
  }

  const teams = new Map<string, { team: string; issues: number } & Record<Severity, number>>();
  for (const issue of issues) {
    const t = teams.get(issue.team) ?? { team: issue.team, issues: 0, critical: 0, high: 0, medium: 0, low: 0 };
    t.issues++;
    t[issue.severity]++;
    teams.set(issue.team, t);
  }
  const bySeverity = new Map<Category, Record<Severity, number>>(
    CATEGORIES.map((c) => [c, { critical: 0, high: 0, medium: 0, low: 0 }]),
  );
  for (const issue of issues) bySeverity.get(issue.category)![issue.severity]++;
  const categories: CategoryStat[] = CATEGORIES.map((category) => {
    const s = catStats.get(category)!;
    return {
      category,
      ...s,
      issues: bySeverity.get(category)!,
      percentage: pct(s.mentions, withText),
      positive_pct: pct(s.positive, s.mentions),
      negative_pct: pct(s.negative, s.mentions),
    };
  });
  const strip = (list: (Quote & { score: number })[]): Quote[] => list.map(({ score: _score, ...q }) => q);
  const result: Aggregates = {
    totals: {
      reviews_in: reviewsIn,
      reviews: reviews.length,
      with_text: withText,
      average_rating: rated ? Math.round((ratingSum / rated) * 100) / 100 : null,
      ...labels,
      positive_pct: pct(labels.positive, withText),
      negative_pct: pct(labels.negative, withText),
      mixed_pct: pct(labels.mixed, withText),
      average_compound: withText ? round3(compoundSum / withText) : 0,
      issues: issues.length,
      critical_issues: issues.filter((i) => i.severity === "critical").length,
      critical_reviews: criticalReviews,
    },
    period: { from: from?.toISOString() ?? null, to: to?.toISOString() ?? null },
    languages: [...languages]
      .map(([language, count]) => ({ language, count }))
      .sort((a, b) => b.count - a.count || a.language.localeCompare(b.language)),
    rating_distribution: ratings.map((count, i) => ({ rating: i + 1, count })),
    timeline: [...months]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([month, m]) => ({
        month,
        reviews: m.reviews,
        average_rating: m.rated ? Math.round((m.ratingSum / m.rated) * 100) / 100 : null,
        average_compound:
          m.positive + m.neutral + m.negative + m.mixed
            ? round3(m.compoundSum / (m.positive + m.neutral + m.negative + m.mixed))
            : 0,
        positive: m.positive,
        neutral: m.neutral,
        negative: m.negative,
        mixed: m.mixed,
      })),
    categories,
    categories_by_month: [...catMonths]
      .map(([key, v]) => {
        const [month, category] = key.split("|") as [string, Category];
        return { month, category, ...v };
      })
      .sort(
        (a, b) => a.month.localeCompare(b.month) || CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category),
      ),
    weekday_hour: weekdayHour,
    top_phrases: [...phrases]
      .filter(([, p]) => p.count >= 2)
      .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
      .slice(0, 20)
      .map(([phrase, p]) => ({ phrase, ...p })),
    teams: [...teams.values()].sort((a, b) => b.issues - a.issues || a.team.localeCompare(b.team)),
    top_issues: [...issues]
      .sort(
        (a, b) =>
          SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
          a.score - b.score ||
          a.review_id.localeCompare(b.review_id),
      )
      .slice(0, 50),
    topics: Object.fromEntries(
      CATEGORIES.map((c) => [
        c,
        TOPICS.filter((t) => TOPIC_VOCABULARY[t].category === c && topics.get(t)!.reviews > 0)
          .map((t): TopicStat => {
            const s = topics.get(t)!;
            return {
              topic: t,
              label: TOPIC_VOCABULARY[t].label.en,
              reviews: s.reviews,
              review_ids: s.ids,
              quotes: strip(s.quotes),
            };
          })
          // The most named first; ties in vocabulary order (the sort is stable).
          .sort((a, b) => b.reviews - a.reviews)
          .slice(0, TOPICS_PER_CATEGORY),
      ]),
    ),
    quotes: Object.fromEntries(
      CATEGORIES.map((c) => [
        c,
        { positive: strip(quotes.get(c)!.positive), negative: strip(quotes.get(c)!.negative) },
      ]),
    ),
  };
  return { output: result, itemsOut: reviews.length };
}
