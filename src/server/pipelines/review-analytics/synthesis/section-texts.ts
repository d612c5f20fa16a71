import { plainCiteIn } from "./citations";
import type { ReportFacts } from "./facts";
import { NARRATIVE_LANGUAGES, type ReportLanguage } from "./lang";
import { actionText, issueSummary } from "./sections";

/** The texts of the report's sections in one language (their figures are not linked, as in English). */
export interface SectionTexts {
  /** Each row of action_matrix, in order: its action and timeframe. */
  action_matrix: { action: string; timeframe: string }[];
  /** Each critical_issues item's summary, in order. */
  critical_summaries: string[];
}

/** The section texts of a language, from the same facts and templates as the sections' English fields. */
export function sectionTexts(f: ReportFacts, language: ReportLanguage): SectionTexts {
  const L = NARRATIVE_LANGUAGES[language];
  const cite = plainCiteIn(L.numbers);
  const a = f.aggregates;
  return {
    action_matrix: f.actions.map((x) => ({
      action: actionText(x, a, f.scorecard.find((r) => r.category === x.category)?.negative ?? 0, cite, L),
      // An action's impact is its category's risk level, and its timeframe that level's (sections.ts).
      timeframe: L.timeframe(x.impact),
    })),
    critical_summaries: f.critical.map((c) =>
      issueSummary(
        L,
        c.category,
        c,
        a.categories.find((s) => s.category === c.category),
        f.strengths.some((s) => s.category === c.category),
      ),
    ),
  };
}
