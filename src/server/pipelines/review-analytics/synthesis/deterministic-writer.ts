import { label, actionFor } from "./sections";
import { plainCite, untagNarrative, type Cite, type EvidenceLink } from "./citations";
import type { NarrativeWriter, ReportFacts } from "./facts";
import { citer, FIGURES, type Figure } from "./figures";
import type { Category } from "../taxonomy";
import type { TNarrative } from "./report";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** "For Casa Pepe, " / "For Casa Pepe and 2 other places, " / "" when the run has no named place. */
function where(places: ReportFacts["places"], figure: (f: Figure) => string): string {
  const named = places.find((p) => p.name);
  if (!named) return "";
  const others = places.length - 1;
  return `For ${named.name}${others > 0 ? ` and ${figure(FIGURES.otherPlaces(named, others))} other ${others === 1 ? "place" : "places"}` : ""}, `;
}

const METRIC_NAMES: Record<string, string> = {
  reviews: "the number of reviews",
  average_rating: "the average rating",
  positive_pct: "the positive share",
  negative_pct: "the negative share",
  critical_reviews: "reviews reporting a health-and-safety problem",
};

/** "Since the previous run of these places (2026-11-20): the average rating went down from 4.1 to 3.9, …" */
function compared(c: ReportFacts["comparison"], figure: (f: Figure) => string): string {
  if (!c || c.metrics.length === 0) return "";
  const parts = c.metrics.map((m) => {
    const name = METRIC_NAMES[m.metric] ?? m.metric;
    const now = figure(FIGURES.now(m.metric, m.now));
    return m.direction === "same" ? `${name} stayed at ${now}` : `${name} went ${m.direction} from ${figure(FIGURES.before(m.metric, m.before, c.execution_id))} to ${now}`;
  });
  const before = c.metrics.find((m) => m.metric === "reviews")?.before ?? 0;
  return `Since the previous run of these places (${figure(FIGURES.previousRun(c.execution_id, c.finished_at.slice(0, 10), before))}): ${parts.join(", ")}.`;
}

/**
 * Writes the narrative from the facts alone: same facts, same text; every number is one of the facts,
 * cited with `cite` (its ref and the reviews it counts). Scale bounds ("of 5", "from -1 to 1", "of
 * 100"), star buckets ("4 or 5 stars"), list positions and recommended timeframes are not figures.
 */
function writeTagged(f: ReportFacts, cite: Cite): TNarrative {
  const figure = citer(cite);
  const a = f.aggregates;
  const t = a.totals;
  const risk = f.scorecard[0];
  const strength = f.strengths[0] as { category: string; percentage: number; mentions: number } | undefined;
  const reviews = figure(FIGURES.reviews(t));
  const riskShare = risk ? figure(FIGURES.polarShare(risk.category, "negative", risk.negative_pct)) : "";
  const avg = t.average_rating === null ? "no star ratings" : `an average rating of ${figure(FIGURES.averageRating(t.average_rating))} of 5`;
  const headline = risk && risk.risk_level !== "low"
    ? `${reviews} reviews: ${label(risk.category)} is the main risk (${riskShare} negative)`
    : `${reviews} reviews: ${figure(FIGURES.share("positive", t))} positive, no category at high risk`;
  const month = (iso: string | null) => {
    const m = iso ? a.timeline.find((x) => x.month === iso.slice(0, 7)) : undefined;
    return m ? figure(FIGURES.month(m)) : "n/a";
  };
  const narrative = [
    `${where(f.places, figure)}from ${month(a.period.from)} to ${month(a.period.to)}, ${reviews} reviews were analysed (${figure(FIGURES.reviewsIn(t))} read, duplicates and empty ones removed), with ${avg}.`.replace(/^f/, "F"),
    `${figure(FIGURES.share("positive", t))} of the ${figure(FIGURES.withText(t))} texts read positive, ${figure(FIGURES.share("negative", t))} negative${t.mixed_pct ? ` and ${figure(FIGURES.share("mixed", t))} mixed` : ""}.`,
    risk ? `The biggest risk is ${label(risk.category)}: ${riskShare} of its ${figure(FIGURES.mentions(risk.category, risk.mentions))} mentions are negative (risk score ${figure(FIGURES.risk(risk.category, risk.risk_score))} of 100), owned by ${label(risk.team)}.` : "",
    strength ? `The strongest asset is ${label(strength.category)}, praised in ${figure(FIGURES.polarShare(strength.category, "positive", strength.percentage))} of its ${figure(FIGURES.mentions(strength.category, strength.mentions))} mentions.` : "",
    compared(f.comparison, figure),
    // Reviews, not category mentions: a review reporting a hazard about food and cleanliness is one review.
    t.critical_reviews
      ? `${figure(FIGURES.criticalReviews(t))} ${t.critical_reviews === 1 ? "review reports" : "reviews report"} a health-and-safety problem (${figure(FIGURES.criticalIssues(t))} critical ${t.critical_issues === 1 ? "mention" : "mentions"} across categories); they need attention now.`
      : "No review reports a health-and-safety problem.",
  ].filter(Boolean).join(" ");

  const texts = (l: "positive" | "neutral" | "negative" | "mixed") => figure(FIGURES.texts(l, t));
  const sentiment = [
    `${texts("positive")} texts are positive, ${texts("neutral")} neutral, ${texts("negative")} negative and ${texts("mixed")} mixed (praise and complaints of comparable weight); the average sentiment score is ${figure(FIGURES.averageCompound(t))} on a scale from -1 to 1.`,
    ...a.languages.filter((l) => l.language !== "unknown").map((l) => `${figure(FIGURES.language(l))} reviews are in ${l.language}.`),
  ];
  sentiment.push(`${figure(FIGURES.stars(4, 5, f.derived.high_star_reviews))} reviews give 4 or 5 stars and ${figure(FIGURES.stars(1, 2, f.derived.low_star_reviews))} give 1 or 2 stars.`);

  const categories = a.categories
    .filter((c) => c.mentions > 0)
    .sort((x, y) => y.mentions - x.mentions)
    .map(
      (c) =>
        `${label(c.category)}: mentioned in ${figure(FIGURES.mentionShare(c))} of texts (${figure(FIGURES.mentions(c.category, c.mentions))} mentions), ` +
        `${figure(FIGURES.polarShare(c.category, "positive", c.positive_pct))} of them positive and ${figure(FIGURES.polarShare(c.category, "negative", c.negative_pct))} negative.`,
    );
  if (!categories.length) categories.push("No text mentions a category of the taxonomy.");

  const timeline: string[] = [];
  const first = a.timeline[0];
  const last = a.timeline[a.timeline.length - 1];
  const rating = (m: NonNullable<typeof first>) => (m.average_rating === null ? "n/a" : figure(FIGURES.monthRating(m.month, m.average_rating)));
  if (first && last && first !== last) {
    const compound = (m: NonNullable<typeof first>) => figure(FIGURES.monthCompound(m.month, m.average_compound));
    timeline.push(
      `The average rating went from ${rating(first)} in ${figure(FIGURES.month(first))} to ${rating(last)} in ${figure(FIGURES.month(last))}; the sentiment score from ${compound(first)} to ${compound(last)}.`,
    );
    const worst = f.derived.worst_month;
    if (worst) {
      const m = a.timeline.find((x) => x.month === worst.month) ?? { month: worst.month, reviews: worst.reviews };
      timeline.push(`${figure(FIGURES.month(m))} had the most negative texts (${figure(FIGURES.monthNegative(worst.month, worst.negative))} of ${figure(FIGURES.monthReviews(worst.month, worst.reviews))} reviews).`);
    }
  } else if (first) {
    timeline.push(`All reviews fall in ${figure(FIGURES.month(first))}, with an average rating of ${rating(first)}.`);
  } else {
    timeline.push("No review has a publication date.");
  }
  const p = f.derived.peak;
  if (p) timeline.push(`Most reviews are written on ${WEEKDAYS[p.weekday]} at ${figure(FIGURES.peakTime(p))} UTC (${figure(FIGURES.peakReviews(p))} reviews).`);

  const actionPlan = f.actions.length
    ? f.actions.map((x) => {
        const negative = f.scorecard.find((r) => r.category === x.category)?.negative ?? 0;
        return `${x.priority}. ${label(x.team)}: ${actionFor(x.category as Category, a.complaint_phrases?.[x.category], negative, cite)} (${label(x.category)}, ${x.timeframe}).`;
      })
    : ["Keep the current standards: no category has negative mentions."];
  const marketing = f.strengths.length
    ? f.strengths.map((s) => {
        const item = s as { category: string; percentage: number; top_quotes: string[] };
        const quote = item.top_quotes[0];
        return `Lead with ${label(item.category)} (${figure(FIGURES.polarShare(item.category, "positive", item.percentage))} positive)${quote ? `, in guests' own words: "${quote}"` : ""}.`;
      })
    : ["Collect more reviews before choosing a marketing angle."];
  const priorities = f.scorecard
    .filter((r) => r.risk_level !== "low" || r.critical_issues > 0)
    .map((r) => `Fix ${label(r.category)} first (${r.risk_level} risk, score ${figure(FIGURES.risk(r.category, r.risk_score))}; ${figure(FIGURES.negativeMentions(r.category, r.negative))} negative mentions).`);
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

/** The narrative with its figures linked: the texts, and where each figure is in them (cited with `cite`). */
export function writeLinked(f: ReportFacts, cite: Cite): { narrative: TNarrative; links: EvidenceLink[] } {
  return untagNarrative(writeTagged(f, cite));
}

/** The narrative alone. */
export function writeDeterministic(f: ReportFacts): TNarrative {
  return writeTagged(f, plainCite);
}

/** The default writer. */
export const deterministicWriter: NarrativeWriter = {
  name: "deterministic",
  write: (facts) => Promise.resolve(writeDeterministic(facts)),
};
