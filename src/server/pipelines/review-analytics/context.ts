import type { ModelClassifier } from "./model-classifier";
import type { NarrativeWriter } from "./synthesis/facts";

/** What the review-analytics stages share during one run. */
export interface ReviewAnalyticsContext {
  reviewsIn: number;
  writer: NarrativeWriter | null;
  /** The language-model classifier of the classify stage (null: the rules alone). */
  classifier?: ModelClassifier | null;
  now: () => Date;
}
