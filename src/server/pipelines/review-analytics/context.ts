import type { NarrativeWriter } from "./synthesis/facts";

/** What the review-analytics stages share during one run. */
export interface ReviewAnalyticsContext {
  reviewsIn: number;
  writer: NarrativeWriter | null;
  now: () => Date;
}
