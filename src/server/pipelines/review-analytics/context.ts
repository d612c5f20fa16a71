import type { ModelClassifier } from "./model-classifier";
import type { NarrativeWriter } from "./synthesis/facts";

/** What the review-analytics stages share during one run. */
export interface ReviewAnalyticsContext {
  reviewsIn: number;
  /** The places the run read (names as the platform showed them), named in the report. */
  places?: import("../types").RunPlace[];
  writer: NarrativeWriter | null;
  /** The language-model classifier of the classify stage (null: the rules alone). */
  classifier?: ModelClassifier | null;
  now: () => Date;
}
