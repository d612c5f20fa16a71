import type { Aggregates } from "../aggregates";
import type { PreviousRun } from "../previous-run";
import { deterministicWriter } from "./deterministic-writer";
import { buildFacts, type NarrativeWriter } from "./facts";
import type { ReportV2 } from "./report";
import type { StageResult } from "../../types";

/**
 * Stage 5: the v2 report. Sections come from the aggregates; the narrative comes from the configured
 * writer, and from the deterministic writer when there is none or it fails in any way.
 */
export async function synthesize(
  agg: Aggregates,
  opts: { writer?: NarrativeWriter | null; now: () => Date; places?: readonly { name: string | null; place_key: string; reviews: number }[]; previous?: PreviousRun | null },
): Promise<StageResult<ReportV2>> {
  const facts = buildFacts(agg, opts.places ?? [], opts.previous ?? null);
  const warnings: string[] = [];
  let narrative = null;
  let writerName: ReportV2["writer"] = "deterministic";
  if (opts.writer && opts.writer.name !== "deterministic") {
    try {
      narrative = await opts.writer.write(facts);
      writerName = opts.writer.name;
    } catch (error) {
      warnings.push(`language-model writer failed, deterministic text used: ${(error as Error).message.slice(0, 200)}`);
    }
  }
  narrative ??= await deterministicWriter.write(facts);
  const t = agg.totals;
  const report: ReportV2 = {
    report_version: "2.0",
    generated_at: opts.now().toISOString(),
    writer: writerName,
    period: agg.period,
    places: facts.places,
    comparison: facts.comparison,
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
    action_matrix: facts.actions,
    action_plan: narrative.action_plan,
    marketing_angles: narrative.marketing_angles,
    priority_recommendations: narrative.priority_recommendations,
    tracking_kpis: facts.kpis,
    strengths_to_protect: facts.strengths,
  };
  return { output: report, itemsOut: 1, warnings };
}
