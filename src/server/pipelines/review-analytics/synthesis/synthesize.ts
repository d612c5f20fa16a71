import type { Aggregates } from "../aggregates";
import type { PreviousRun } from "../previous-run";
import type { ReviewLabel } from "../../types";
import { EvidenceBook, linkByValue, plainCiteIn, type EvidenceLink, type OtherRuns } from "./citations";
import { writeDeterministic, writeLinked } from "./deterministic-writer";
import { buildFacts, type FactPlace, type NarrativeWriter } from "./facts";
import { NARRATIVE_LANGUAGES, REPORT_LANGUAGES, type ReportLanguage } from "./lang";
import { comparesPlaces, placesSectionTexts } from "./place-section";
import { sectionTexts } from "./section-texts";
import type { TNarrative } from "./narrative";
import type { ReportNarrative, ReportV2 } from "./report";
import type { StageResult } from "../../types";
import { writerFailedWarning } from "../../stage-warnings";

/**
 * Stage 5: the v2 report. Sections come from the aggregates; the narrative comes from the configured
 * writer, and from the deterministic writer when there is none or it fails in any way. With the run's
 * label rows, every figure the narrative states gets its evidence (the reviews it counts) and a link
 * from where it is written: the deterministic writer cites each figure as it writes it; a language
 * model's text is linked by value to the figures the deterministic writer cites. The deterministic
 * narrative is written in every report language (report.narratives); a language model writes English
 * only, so with one the English texts are its own and the others stay the deterministic writer's.
 */
export async function synthesize(
  agg: Aggregates,
  opts: {
    writer?: NarrativeWriter | null;
    now: () => Date;
    places?: readonly FactPlace[];
    previous?: PreviousRun | null;
    labels?: readonly ReviewLabel[] | null;
    previousEvidence?: OtherRuns;
  },
): Promise<StageResult<ReportV2>> {
  const facts = buildFacts(agg, opts.places ?? [], opts.previous ?? null);
  const warnings: string[] = [];
  const book = opts.labels ? new EvidenceBook(opts.labels, opts.previousEvidence ?? {}) : null;
  // English first: its figures are the evidence's first entries, as before other languages existed.
  const written = new Map<ReportLanguage, { narrative: TNarrative; links: EvidenceLink[] | null }>(
    REPORT_LANGUAGES.map((l) => [
      l,
      book ? writeLinked(facts, book.citeIn, l) : { narrative: writeDeterministic(facts, l), links: null },
    ]),
  );
  const cited = written.get("en");
  let links: EvidenceLink[] | null = cited?.links ?? null;
  let narrative: TNarrative | null = null;
  let writerName: ReportV2["writer"] = "deterministic";
  if (opts.writer && opts.writer.name !== "deterministic") {
    try {
      narrative = await opts.writer.write(facts);
      writerName = opts.writer.name;
      if (book) links = linkByValue(narrative, book.entries);
    } catch (error) {
      warnings.push(writerFailedWarning((error as Error).message));
    }
  }
  narrative ??= cited?.narrative ?? writeDeterministic(facts);
  // "How the places compare" (runs over two places or more), in every language, its figures cited after the narrative's.
  const compared = agg.place_comparison;
  const placesIn = (l: ReportLanguage) =>
    placesSectionTexts(
      compared,
      book ? book.citeIn(NARRATIVE_LANGUAGES[l].numbers) : plainCiteIn(NARRATIVE_LANGUAGES[l].numbers),
      l,
      book !== null,
    ) ?? {};
  const inLanguage = (l: ReportLanguage, n: TNarrative, spans: EvidenceLink[] | null): ReportNarrative => ({
    ...n,
    ...(book && spans ? { links: spans } : {}),
    ...sectionTexts(facts, l),
    ...placesIn(l),
  });
  const narratives = Object.fromEntries(
    REPORT_LANGUAGES.map((l) => [
      l,
      l === "en"
        ? inLanguage(l, narrative, links)
        : inLanguage(l, written.get(l)?.narrative ?? writeDeterministic(facts, l), written.get(l)?.links ?? null),
    ]),
  ) as ReportV2["narratives"];
  const t = agg.totals;
  const report: ReportV2 = {
    report_version: "2.0",
    generated_at: opts.now().toISOString(),
    writer: writerName,
    period: agg.period,
    places: facts.places,
    comparison: facts.comparison,
    ...(comparesPlaces(compared) ? { place_comparison: compared } : {}),
    executive_summary: {
      headline: narrative.headline,
      narrative: narrative.narrative,
      key_metrics: [
        { label: "reviews", value: t.reviews, unit: "reviews" },
        { label: "average_rating", value: t.average_rating, unit: "stars" },
        { label: "positive_share", value: t.positive_pct, unit: "%" },
        { label: "negative_share", value: t.negative_pct, unit: "%" },
        { label: "issues", value: t.issues, unit: "issues" },
        { label: "critical_reviews", value: t.critical_reviews ?? t.critical_issues, unit: "reviews" },
      ],
    },
    sentiment_insights: narrative.sentiment_insights,
    category_insights: narrative.category_insights,
    timeline_insights: narrative.timeline_insights,
    risk_scorecard: facts.scorecard,
    critical_issues: facts.critical,
    complaint_topics: Object.fromEntries(Object.entries(agg.topics ?? {}).filter(([, list]) => list.length > 0)),
    action_matrix: facts.actions,
    action_plan: narrative.action_plan,
    marketing_angles: narrative.marketing_angles,
    priority_recommendations: narrative.priority_recommendations,
    tracking_kpis: facts.kpis,
    strengths_to_protect: facts.strengths,
    ...(book && links ? { evidence: book.entries, links } : {}),
    narratives,
  };
  return { output: report, itemsOut: 1, warnings };
}
