import { label } from "./sections";
import type { NarrativeWriter, ReportFacts } from "./facts";
import type { TNarrative } from "./report";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const fmt = (n: number) => (Number.isInteger(n) ? n.toLocaleString("en-US") : String(n));
const month = (iso: string | null) => (iso ? iso.slice(0, 7) : "n/a");

/** "For Casa Pepe, " / "For Casa Pepe and 2 other places, " / "" when the run has no named place. */
function where(places: ReportFacts["places"]): string {
  const named = places.find((p) => p.name);
  if (!named) return "";
  const others = places.length - 1;
  return `For ${named.name}${others > 0 ? ` and ${fmt(others)} other ${others === 1 ? "place" : "places"}` : ""}, `;
}

const METRIC_NAMES: Record<string, [string, string]> = {
  reviews: ["the number of reviews", ""],
  average_rating: ["the average rating", ""],
  positive_pct: ["the positive share", "%"],
  negative_pct: ["the negative share", "%"],
  critical_reviews: ["reviews reporting a health-and-safety problem", ""],
};

/** "Since the previous run of these places (2026-11-20): the average rating went down from 4.1 to 3.9, …" */
function compared(c: ReportFacts["comparison"]): string {
  if (!c || c.metrics.length === 0) return "";
  const parts = c.metrics.map((m) => {
    const [name, unit] = METRIC_NAMES[m.metric] ?? [m.metric, ""];
    return m.direction === "same" ? `${name} stayed at ${fmt(m.now)}${unit}` : `${name} went ${m.direction} from ${fmt(m.before)}${unit} to ${fmt(m.now)}${unit}`;
  });
  return `Since the previous run of these places (${c.finished_at.slice(0, 10)}): ${parts.join(", ")}.`;
}

/** Writes the narrative from the facts alone: same facts, same text; every number is one of the facts. */
export function writeDeterministic(f: ReportFacts): TNarrative {
  const a = f.aggregates;
  const t = a.totals;
  const risk = f.scorecard[0];
  const strength = f.strengths[0] as { category: string; percentage: number; mentions: number } | undefined;
  const avg = t.average_rating === null ? "no star ratings" : `an average rating of ${t.average_rating} of 5`;
  const headline = risk && risk.risk_level !== "low"
    ? `${fmt(t.reviews)} reviews: ${label(risk.category)} is the main risk (${risk.negative_pct}% negative)`
    : `${fmt(t.reviews)} reviews: ${t.positive_pct}% positive, no category at high risk`;
  const narrative = [
    `${where(f.places)}from ${month(a.period.from)} to ${month(a.period.to)}, ${fmt(t.reviews)} reviews were analysed (${fmt(t.reviews_in)} read, duplicates and empty ones removed), with ${avg}.`.replace(/^f/, "F"),
    `${t.positive_pct}% of the ${fmt(t.with_text)} texts read positive, ${t.negative_pct}% negative${t.mixed_pct ? ` and ${t.mixed_pct}% mixed` : ""}.`,
    risk ? `The biggest risk is ${label(risk.category)}: ${risk.negative_pct}% of its ${fmt(risk.mentions)} mentions are negative (risk score ${risk.risk_score} of 100), owned by ${risk.team}.` : "",
    strength ? `The strongest asset is ${label(strength.category)}, praised in ${strength.percentage}% of its ${fmt(strength.mentions)} mentions.` : "",
    // Reviews, not category mentions: a review reporting a hazard about food and cleanliness is one review.
    compared(f.comparison),
    t.critical_reviews
      ? `${fmt(t.critical_reviews)} ${t.critical_reviews === 1 ? "review reports" : "reviews report"} a health-and-safety problem (${fmt(t.critical_issues)} critical ${t.critical_issues === 1 ? "mention" : "mentions"} across categories); they need attention now.`
      : "No review reports a health-and-safety problem.",
  ].filter(Boolean).join(" ");

  const sentiment = [
    `${fmt(t.positive)} texts are positive, ${fmt(t.neutral)} neutral, ${fmt(t.negative)} negative and ${fmt(t.mixed ?? 0)} mixed (praise and complaints of comparable weight); the average sentiment score is ${t.average_compound} on a scale from -1 to 1.`,
    ...a.languages.filter((l) => l.language !== "unknown").map((l) => `${fmt(l.count)} reviews are in ${l.language}.`),
  ];
  sentiment.push(`${fmt(f.derived.high_star_reviews)} reviews give 4 or 5 stars and ${fmt(f.derived.low_star_reviews)} give 1 or 2 stars.`);

  const categories = a.categories
    .filter((c) => c.mentions > 0)
    .sort((x, y) => y.mentions - x.mentions)
    .map((c) => `${label(c.category)}: mentioned in ${c.percentage}% of texts (${fmt(c.mentions)} mentions), ${c.positive_pct}% of them positive and ${c.negative_pct}% negative.`);
  if (!categories.length) categories.push("No text mentions a category of the taxonomy.");

  const timeline: string[] = [];
  const first = a.timeline[0];
  const last = a.timeline[a.timeline.length - 1];
  if (first && last && first !== last) {
    timeline.push(`The average rating went from ${first.average_rating ?? "n/a"} in ${first.month} to ${last.average_rating ?? "n/a"} in ${last.month}; the sentiment score from ${first.average_compound} to ${last.average_compound}.`);
    const worst = f.derived.worst_month;
    if (worst) timeline.push(`${worst.month} had the most negative texts (${fmt(worst.negative)} of ${fmt(worst.reviews)} reviews).`);
  } else if (first) {
    timeline.push(`All reviews fall in ${first.month}, with an average rating of ${first.average_rating ?? "n/a"}.`);
  } else {
    timeline.push("No review has a publication date.");
  }
  const p = f.derived.peak;
  if (p) timeline.push(`Most reviews are written on ${WEEKDAYS[p.weekday]} at ${p.hour}:00 UTC (${fmt(p.count)} reviews).`);

  const actionPlan = f.actions.length
    ? f.actions.map((x) => `${x.priority}. ${x.team}: ${x.action} (${label(x.category)}, ${x.timeframe}).`)
    : ["Keep the current standards: no category has negative mentions."];
  const marketing = f.strengths.length
    ? f.strengths.map((s) => {
        const item = s as { category: string; percentage: number; top_quotes: string[] };
        const quote = item.top_quotes[0];
        return `Lead with ${label(item.category)} (${item.percentage}% positive)${quote ? `, in guests' own words: "${quote}"` : ""}.`;
      })
    : ["Collect more reviews before choosing a marketing angle."];
  const priorities = f.scorecard
    .filter((r) => r.risk_level !== "low" || r.critical_issues > 0)
    .map((r) => `Fix ${label(r.category)} first (${r.risk_level} risk, score ${r.risk_score}; ${fmt(r.negative)} negative mentions).`);
  if (!priorities.length) priorities.push("No category is at medium or high risk; watch the tracking KPIs monthly.");

  return {
    headline,
    narrative,
    sentiment_insights: sentiment.slice(0, 8),
    category_insights: categories.slice(0, 10),
    timeline_insights: timeline,
    action_plan: actionPlan.slice(0, 10),
    marketing_angles: marketing.slice(0, 8),
    priority_recommendations: priorities.slice(0, 8),
  };
}

/** The default writer. */
export const deterministicWriter: NarrativeWriter = {
  name: "deterministic",
  write: (facts) => Promise.resolve(writeDeterministic(facts)),
};
