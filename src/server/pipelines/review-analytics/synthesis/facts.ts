import type { Aggregates } from "../aggregates";
import type { PreviousRun } from "../previous-run";
import type { ActionRow, CriticalIssue, RiskRow, TNarrative, TrackingKpi } from "./report";
import { actionMatrix, criticalIssues, riskScorecard, strengthsToProtect, trackingKpis } from "./sections";

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

function compare(agg: Aggregates, previous: PreviousRun | null): Comparison | null {
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

/** Figures read off the aggregates that no single aggregate field holds. */
export interface DerivedFacts {
  /** Busiest weekday (0 = Monday) and hour (UTC) of the weekday x hour grid. */
  peak: { weekday: number; hour: number; count: number } | null;
  high_star_reviews: number;
  low_star_reviews: number;
  worst_month: { month: string; negative: number; reviews: number } | null;
}

/** Everything a writer may say: the aggregates, the sections computed from them, and the scales used. */
export interface ReportFacts {
  aggregates: Aggregates;
  /** The places the run read, the biggest first (name null when no job knew it). */
  places: FactPlace[];
  /** The change of the headline figures since the previous run of the same places, when there is one. */
  comparison: Comparison | null;
  scorecard: RiskRow[];
  critical: CriticalIssue[];
  actions: ActionRow[];
  kpis: TrackingKpi[];
  strengths: Record<string, unknown>[];
  derived: DerivedFacts;
  /** Fixed scales texts may name (stars 1..5, sentiment -1..1, risk 0..100, clock minutes 00). */
  scales: { stars: [1, 2, 3, 4, 5]; sentiment: [-1, 0, 1]; risk: [0, 100] };
}

/** A writer of the report's narrative texts. */
export interface NarrativeWriter {
  readonly name: "deterministic" | "llm";
  write(facts: ReportFacts): Promise<TNarrative>;
}

function peakOf(grid: number[][]): DerivedFacts["peak"] {
  let best: DerivedFacts["peak"] = null;
  grid.forEach((row, weekday) =>
    row.forEach((count, hour) => {
      if (count > 0 && (!best || count > best.count)) best = { weekday, hour, count };
    }),
  );
  return best;
}

/** A place of the run as the report names it (origin: where it was read, when known). */
export interface FactPlace {
  name: string | null;
  place_key: string;
  origin?: string;
  reviews: number;
}

/** Computes the report's sections and derived figures from the aggregates. */
export function buildFacts(
  agg: Aggregates,
  places: readonly FactPlace[] = [],
  previous: PreviousRun | null = null,
): ReportFacts {
  const scorecard = riskScorecard(agg);
  const worst = [...agg.timeline].sort((x, y) => y.negative - x.negative || x.month.localeCompare(y.month))[0];
  return {
    aggregates: agg,
    places: [...places]
      .sort((a, b) => b.reviews - a.reviews)
      .map((p) => ({
        name: p.name,
        place_key: p.place_key,
        ...(p.origin !== undefined ? { origin: p.origin } : {}),
        reviews: p.reviews,
      })),
    comparison: compare(agg, previous),
    scorecard,
    critical: criticalIssues(agg),
    actions: actionMatrix(scorecard, agg.complaint_phrases),
    kpis: trackingKpis(agg, scorecard),
    strengths: strengthsToProtect(agg),
    derived: {
      peak: peakOf(agg.weekday_hour),
      high_star_reviews: agg.rating_distribution.filter((r) => r.rating >= 4).reduce((s, r) => s + r.count, 0),
      low_star_reviews: agg.rating_distribution.filter((r) => r.rating <= 2).reduce((s, r) => s + r.count, 0),
      worst_month: worst ? { month: worst.month, negative: worst.negative, reviews: worst.reviews } : null,
    },
    scales: { stars: [1, 2, 3, 4, 5], sentiment: [-1, 0, 1], risk: [0, 100] },
  };
}
