import type { Aggregates } from "../aggregates";
import type { PreviousRun } from "../previous-run";

/** One figure now and in the previous run: `change` is the absolute difference, `direction` its sign. */
export interface ComparedMetric {
  metric: "reviews" | "average_rating" | "positive_pct" | "negative_pct" | "critical_reviews";
  before: number;
  now: number;
  change: number;
  direction: "up" | "down" | "same";
}
export interface Comparison {
  execution_id: string;
  finished_at: string;
  metrics: ComparedMetric[];
}

/** The headline figures of this run beside those of the previous run of the same places, if any. */
export function compare(agg: Aggregates, previous: PreviousRun | null): Comparison | null {
  if (!previous) return null;
  const t = agg.totals;
  const pairs: [ComparedMetric["metric"], number | null, number | null][] = [
    ["reviews", previous.totals.reviews, t.reviews],
    ["average_rating", previous.totals.average_rating, t.average_rating],
    ["positive_pct", previous.totals.positive_pct, t.positive_pct],
    ["negative_pct", previous.totals.negative_pct, t.negative_pct],
    ["critical_reviews", previous.totals.critical_reviews, t.critical_reviews ?? null],
  ];
  const metrics = pairs
    .filter((p): p is [ComparedMetric["metric"], number, number] => p[1] !== null && p[2] !== null)
    .map(([metric, before, now]) => {
      const change = Math.round(Math.abs(now - before) * 100) / 100;
      return {
        metric,
        before,
        now,
        change,
        direction: change === 0 ? "same" : now > before ? "up" : "down",
      } satisfies ComparedMetric;
    });
  return { execution_id: previous.execution_id, finished_at: previous.finished_at, metrics };
}
