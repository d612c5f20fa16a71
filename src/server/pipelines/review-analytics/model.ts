import type { Hazard } from "./critical-types";
import type { DetectedLanguage } from "./language";
import type { SentimentLabel } from "./sentiment";
import type { Category } from "./taxonomy";

/** A review as the pipeline reads it from the reviews table (or a generator). */
export interface RawReview {
  id: string;
  author: string | null;
  rating: number | null;
  text: string | null;
  language: string | null;
  publishedAt: Date | null;
  /** The platform shows an owner reply, and its date when shown (the reply KPIs; generated reviews have none). */
  ownerReplied?: boolean;
  ownerReplyAt?: Date | null;
  /** Where it was read from (the loader knows; generated reviews have none). */
  origin?: string;
  placeKey?: string;
}

/** After normalize: cleaned text, its tokens and the detected language. */
export interface NormalizedReview {
  id: string;
  author: string | null;
  rating: number | null;
  text: string;
  language: DetectedLanguage;
  publishedAt: Date | null;
  /** Tokens of the whole text (language, phrases). */
  tokens: string[];
  /** The text's sentences with their own tokens (categories and sentiment per sentence). */
  sentences: { text: string; tokens: string[] }[];
}

/** One sentence of a review that mentions a category, with the sentence's polarity. */
export interface Mention {
  category: Category;
  polarity: "positive" | "neutral" | "negative";
  score: number;
  sentence: string;
  /** The sentence holds a health-and-safety phrase. */
  critical: boolean;
}

/** After classify: sentiment of the whole text and the category mentions. */
export interface ClassifiedReview extends NormalizedReview {
  sentiment: number;
  compound: number;
  label: SentimentLabel;
  mentions: Mention[];
  critical: boolean;
  /** The health-and-safety hazards the text reports (empty when it is not critical). */
  hazards: Hazard[];
  /** Who set the label: the rules (default) or the language model (classifyWithModel). */
  labelSource?: "rules" | "model";
  /** The categories the model found in the whole text, when it labelled the review. */
  modelCategories?: Category[];
}

export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A negative mention routed to the team that owns its category. */
export interface Issue {
  review_id: string;
  category: Category;
  team: string;
  severity: Severity;
  excerpt: string;
  rating: number | null;
  score: number;
  published_at: string | null;
}

export interface RoutedReviews {
  reviews: ClassifiedReview[];
  issues: Issue[];
}
