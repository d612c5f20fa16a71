import type { Issue, Severity } from "./model";
import type { ReplyKpis } from "./replies/kpis";
import type { PlaceComparison } from "./place-comparison";
import type { Category } from "./taxonomy";
import type { Topic } from "./topic-vocabulary";

/** A real excerpt of a review, kept as evidence for the report. */
export interface Quote {
  review_id: string;
  text: string;
  rating: number | null;
  language: string;
}

export interface CategoryStat {
  category: Category;
  mentions: number;
  positive: number;
  neutral: number;
  negative: number;
  /** Share of reviews with text that mention the category, in percent (one decimal). */
  percentage: number;
  positive_pct: number;
  negative_pct: number;
  /** Routed issues of the category by severity. */
  issues: Record<Severity, number>;
}

/** What the aggregate stage stores as the execution's result (the widgets read it). */
export interface Aggregates {
  totals: {
    reviews_in: number;
    reviews: number;
    with_text: number;
    average_rating: number | null;
    positive: number;
    neutral: number;
    negative: number;
    /** Reviews with real praise and real complaints of comparable weight. */
    mixed: number;
    positive_pct: number;
    negative_pct: number;
    mixed_pct: number;
    average_compound: number;
    issues: number;
    /** Issues (one per review and category) of critical severity: mentions, not reviews. */
    critical_issues: number;
    /** Reviews that report a health-and-safety hazard, each counted once. */
    critical_reviews: number;
  };
  period: { from: string | null; to: string | null };
  languages: { language: string; count: number }[];
  rating_distribution: { rating: number; count: number }[];
  timeline: {
    month: string;
    reviews: number;
    average_rating: number | null;
    average_compound: number;
    positive: number;
    neutral: number;
    negative: number;
    mixed: number;
  }[];
  categories: CategoryStat[];
  categories_by_month: { month: string; category: Category; mentions: number; negative: number }[];
  /** Reviews per weekday (0 = Monday) and hour (UTC): weekday_hour[weekday][hour]. */
  weekday_hour: number[][];
  top_phrases: { phrase: string; count: number; positive: number; negative: number }[];
  teams: ({ team: string; issues: number } & Record<Severity, number>)[];
  top_issues: Issue[];
  quotes: Record<string, { positive: Quote[]; negative: Quote[] }>;
  /**
   * Per category, the most frequent two-word phrases of its complaints. Only results written before
   * complaint topics have it (the report then falls back to it); newer results have `topics`.
   */
  complaint_phrases?: Record<string, { phrase: string; reviews: number; review_ids: string[] }[]>;
  /**
   * Per category, the complaint topics of its reviews (topics.ts), the most frequent first: how many
   * reviews name each, up to 20 of their ids and two quotes (sentences that name it). Older results lack it.
   */
  topics?: Record<string, TopicStat[]>;
  /** Reply rate and median response time of the kept reviews (replies/kpis.ts). Older results and the benchmark lack it. */
  replies?: ReplyKpis;
  /**
   * Per place and category, mentions and score (place-comparison.ts), counted over the run's label
   * rows; absent from results written before it and from runs without places (generated reviews).
   */
  place_comparison?: PlaceComparison;
}

/** A complaint topic of a run: a canonical topic, its English label, the reviews that name it and two of their sentences. */
export interface TopicStat {
  topic: Topic;
  label: string;
  reviews: number;
  review_ids: string[];
  quotes: Quote[];
}
