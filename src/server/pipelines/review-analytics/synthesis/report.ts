import type { EvidenceEntry, EvidenceLink } from "./citations";
import type { Comparison } from "./comparison";
import type { ReportLanguage } from "./lang";
import type { TNarrative } from "./narrative";
import type { SectionTexts } from "./section-texts";
import type { ActionRow, CriticalIssue, RiskRow, TrackingKpi } from "./section-rows";
import type { TopicStat } from "../aggregates";
import type { PlaceComparison } from "../place-comparison";
import type { PlacesComparedTexts } from "./place-section";

/**
 * The narrative in one report language, with where its figures are (`links`, present when the report
 * has evidence) and the texts of the sections in that language (absent: the sections' own English texts).
 */
export type ReportNarrative = TNarrative & { links?: EvidenceLink[] } & Partial<SectionTexts> &
  Partial<PlacesComparedTexts>;

/** The v2 synthesis report stored with a review-analytics execution. */
export interface ReportV2 {
  report_version: "2.0";
  generated_at: string;
  writer: "deterministic" | "llm";
  period: { from: string | null; to: string | null };
  /** The places analysed, the biggest first (absent from reports written before it existed). */
  places?: { name: string | null; place_key: string; origin?: string; reviews: number }[];
  /** The headline figures against the previous run of the same places (null: none; absent in older reports). */
  comparison?: Comparison | null;
  /** Each category's score per place, for runs over two places or more (absent otherwise and in older reports). */
  place_comparison?: PlaceComparison;
  executive_summary: {
    headline: string;
    narrative: string;
    key_metrics: { label: string; value: number | null; unit: string }[];
  };
  sentiment_insights: string[];
  category_insights: string[];
  timeline_insights: string[];
  risk_scorecard: RiskRow[];
  critical_issues: CriticalIssue[];
  /**
   * Per category, the complaint topics its reviews name, the most named first, each with its count and
   * two quotes that name it (absent from reports written before topics; categories without topics left out).
   */
  complaint_topics?: Record<string, TopicStat[]>;
  action_matrix: ActionRow[];
  action_plan: string[];
  marketing_angles: string[];
  priority_recommendations: string[];
  tracking_kpis: TrackingKpi[];
  /** Raw pass-through items (untyped list): fields such as percentage and top_quotes are kept as they are. */
  strengths_to_protect: unknown[];
  /**
   * Every figure the narrative states, by ref: its value, unit, the filter of the reviews it counts,
   * how many they are and the first 20 ids (absent from reports written before evidence, and from
   * reports of runs without label rows).
   */
  evidence?: Record<string, EvidenceEntry>;
  /** Where each figure is in the narrative texts: character spans of a field (and list item) and the ref of its evidence. */
  links?: EvidenceLink[];
  /**
   * The narrative in every report language (en, es, de), each with its own links: `en` is the texts
   * above (the configured writer's); the others are the deterministic writer's. Absent from reports
   * written before it existed: readers fall back to the English texts above.
   */
  narratives?: Partial<Record<ReportLanguage, ReportNarrative>>;
}

/**
 * The narrative of a v2 report in a locale: its stored translation, else the English texts of the
 * top-level fields (reports written before narratives existed, or a locale with none).
 */
export function narrativeIn(report: ReportV2, locale: string): ReportNarrative {
  const stored = report.narratives?.[locale as keyof NonNullable<ReportV2["narratives"]>];
  if (stored && typeof stored.headline === "string") return stored;
  return {
    headline: report.executive_summary.headline,
    narrative: report.executive_summary.narrative,
    sentiment_insights: report.sentiment_insights,
    category_insights: report.category_insights,
    timeline_insights: report.timeline_insights,
    action_plan: report.action_plan,
    marketing_angles: report.marketing_angles,
    priority_recommendations: report.priority_recommendations,
    ...(report.links ? { links: report.links } : {}),
  };
}

/**
 * True when a report's narrative shows in English on a page in another locale: a v2 report stored
 * before narratives were written per locale (narrativeIn falls back to its English text), or a legacy
 * v1 report, whose texts were only ever English. The page then says so in the reader's language.
 */
export function narrativeInEnglish(format: string | null | undefined, report: unknown, locale: string): boolean {
  if (locale === "en") return false;
  if (format === "v1") return true;
  if (format !== "v2" || typeof report !== "object" || report === null) return false;
  const stored = (report as ReportV2).narratives?.[locale as keyof NonNullable<ReportV2["narratives"]>];
  return !(stored && typeof stored.headline === "string");
}

export type ReportFormat = "v2" | "v1" | "unknown";

const present = (o: Record<string, unknown>, key: string) => o[key] !== undefined && o[key] !== null;

/**
 * The spec's detection rule: v2 when report_version and executive_summary are both present, legacy v1
 * when both are absent (missing or null); an object with only one of them is neither ("unknown").
 */
export function detectReportFormat(report: unknown): ReportFormat {
  if (typeof report !== "object" || report === null || Array.isArray(report)) return "unknown";
  const o = report as Record<string, unknown>;
  const version = present(o, "report_version");
  const summary = present(o, "executive_summary");
  if (version && summary) return "v2";
  if (!version && !summary) return "v1";
  return "unknown";
}
