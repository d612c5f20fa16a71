import type { Aggregates } from "../aggregates";
import type { PreviousRun } from "../previous-run";
import { compare, type Comparison } from "./comparison";
import type { TNarrative } from "./narrative";
import type { ActionRow, CriticalIssue, RiskRow, TrackingKpi } from "./section-rows";
import { actionMatrix, criticalIssues, riskScorecard, strengthsToProtect, trackingKpis } from "./sections";

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
  const strengths = strengthsToProtect(agg, scorecard);
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
    critical: criticalIssues(
      agg,
      strengths.map((s) => String(s.category)),
    ),
    actions: actionMatrix(scorecard, agg),
    kpis: trackingKpis(agg, scorecard),
    strengths,
    derived: {
      peak: peakOf(agg.weekday_hour),
      high_star_reviews: agg.rating_distribution.filter((r) => r.rating >= 4).reduce((s, r) => s + r.count, 0),
      low_star_reviews: agg.rating_distribution.filter((r) => r.rating <= 2).reduce((s, r) => s + r.count, 0),
      worst_month: worst ? { month: worst.month, negative: worst.negative, reviews: worst.reviews } : null,
    },
    scales: { stars: [1, 2, 3, 4, 5], sentiment: [-1, 0, 1], risk: [0, 100] },
  };
}
