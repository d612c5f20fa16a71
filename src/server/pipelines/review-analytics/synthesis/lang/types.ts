import type { ComparedMetric } from "../comparison";
import type { NumberStyle } from "../numbers";
import type { RiskRow } from "../section-rows";

// The sentences of the deterministic narrative in one language. The writer decides what to say and
// cites every figure; a language only says it: each template receives the figures already written
// (cited, in the language's number style) and, where grammar needs it, the plain count for plurals.
// Adding a language is one file implementing this interface, listed in lang/index.ts.

/** A figure as the writer cites it (tagged text) with the plain count behind it, for plurals. */
export interface Counted {
  text: string;
  n: number;
}

/** The sentence templates and names of one report language. */
export interface NarrativeLanguage {
  readonly code: string;
  readonly numbers: NumberStyle;
  /** A category (food, waiting_time, ...) as written inside a sentence. */
  category(code: string): string;
  /** An owner team (kitchen, front_of_house, ...) as written inside a sentence. */
  team(code: string): string;
  /** A complaint topic (topic-vocabulary.ts) as written inside a sentence: its label in this language. */
  topic(id: string): string;
  /** A risk level (high, medium, low). */
  level(level: RiskRow["risk_level"]): string;
  /** The recommended timeframe of a risk level (a plain phrase, not a figure). */
  timeframe(level: RiskRow["risk_level"]): string;
  /** A review language (en, es, de) by its code. */
  language(code: string): string;
  /** "n/a": a month or rating that is not known. */
  readonly unknown: string;

  headlineRisk(reviews: Counted, category: string, negativeShare: string): string;
  headlineCalm(reviews: Counted, positiveShare: string): string;
  /** The opening sentence: the place (when named), the period, the reviews analysed and the average rating (null: no stars). */
  analysed(p: {
    place: { name: string; others: Counted | null } | null;
    from: string;
    to: string;
    reviews: Counted;
    reviewsIn: string;
    rating: string | null;
  }): string;
  shares(p: { positive: string; texts: string; negative: string; mixed: string | null }): string;
  biggestRisk(p: { category: string; share: string; mentions: string; risk: string; team: string }): string;
  /** The strongest category; `issues`: its high-severity issues, when it has any (the sentence then names both sides). */
  strongest(p: { category: string; share: string; mentions: string; issues: Counted | null }): string;
  /** One compared figure: stayed at `now` (went: null), or went up or down from `before` to `now`. */
  compared(metric: ComparedMetric["metric"], now: string, went: { up: boolean; before: string } | null): string;
  sinceRun(run: string, parts: string[]): string;
  critical(reviews: Counted, mentions: Counted): string;
  readonly noCritical: string;
  sentiment(p: { positive: Counted; neutral: Counted; negative: Counted; mixed: Counted; compound: string }): string;
  reviewLanguage(reviews: Counted, language: string): string;
  stars(high: Counted, low: Counted): string;
  categoryLine(p: { category: string; share: string; mentions: string; positive: string; negative: string }): string;
  readonly noCategories: string;
  ratingTrend(p: {
    fromRating: string;
    fromMonth: string;
    toRating: string;
    toMonth: string;
    fromScore: string;
    toScore: string;
  }): string;
  worstMonth(month: string, negative: string, reviews: Counted): string;
  oneMonth(month: string, rating: string): string;
  readonly noDates: string;
  /** Busiest weekday (0 = Monday) and hour. */
  peak(weekday: number, time: string, reviews: Counted): string;
  /** One line of the action plan: a team's actions of the action matrix (their numbers and subjects) and when; never the actions' texts again. */
  planLine(p: { team: string; timeframe: string; items: { priority: number; subject: string }[] }): string;
  /** The action of the action matrix for a complaint topic, with how many reviews name it. */
  topicAction(topic: string, reviews: Counted): string;
  readonly keepStandards: string;
  /** The action when a category's complaints have no frequent phrase. */
  readNegative(category: string, negative: Counted): string;
  /** The action from a category's most frequent complaint phrases (quoted as the guests wrote them). */
  fixPhrases(category: string, phrases: { phrase: string; reviews: Counted }[]): string;
  marketing(category: string, share: string, quote: string | undefined): string;
  readonly collectMore: string;
  /** A category in order of priority (a priority, not an action: the actions are the action matrix's). */
  priority(p: { category: string; level: string; score: string; negative: Counted }): string;
  readonly noPriorities: string;
  /**
   * The summary of a category's critical or high issues (critical_issues[].summary); `share` is the
   * negative share of its mentions; `praised`, for a category that is also a strength, its positive share.
   */
  issueSummary(p: {
    issues: Counted;
    severity: "critical" | "high";
    category: string;
    share: string;
    mentions: string;
    praised: string | null;
  }): string;
}
