import type { ReviewLabel, RunPlace } from "../types";
import type { RawReview } from "./model";
import type { ModelClassifier } from "./model-classifier";
import type { PreviousRun } from "./previous-run";
import type { OtherRuns } from "./synthesis/citations";
import type { NarrativeWriter } from "./synthesis/facts";

/** What the review-analytics stages share during one run. */
export interface ReviewAnalyticsContext {
  reviewsIn: number;
  /** The places the run read (names as the platform showed them), named in the report. */
  places?: RunPlace[];
  /** The newest earlier run of the same places in the same read scope, compared with in the report. */
  previous?: PreviousRun | null;
  writer: NarrativeWriter | null;
  /** The language-model classifier of the classify stage (null: the rules alone). */
  classifier?: ModelClassifier | null;
  now: () => Date;
  /** Every review read (id and place), for the label rows; absent: the run keeps no labels (the benchmark). */
  read?: readonly Pick<RawReview, "id" | "origin" | "placeKey" | "publishedAt" | "ownerReplied" | "ownerReplyAt">[];
  /** What the run made of each review read, set by the aggregate stage when `read` is given. */
  labels?: ReviewLabel[];
  /** The previous run's compared figures counted in its stored label rows. */
  previousEvidence?: OtherRuns;
}
