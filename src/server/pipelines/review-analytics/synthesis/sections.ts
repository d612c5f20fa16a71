import type { Aggregates, CategoryStat } from "../aggregates";
import { OWNER_TEAMS, type Category } from "../taxonomy";
import { formatClaim, plainCite, type Cite } from "./citations";
import { citer, FIGURES } from "./figures";
import { en } from "./lang/en";
import type { NarrativeLanguage } from "./lang/types";
import type { ActionRow, CriticalIssue, RiskRow, TrackingKpi } from "./section-rows";

/** How much work a fix of each kind of category usually is (our estimate); the action itself comes from the complaints. */
const EFFORT: Record<Category, ActionRow["effort"]> = {
  food: "medium",
  service: "low",
  price: "medium",
  cleanliness: "low",
  waiting_time: "high",
  ambience: "medium",
};

/** Complaint topics turned into actions per category, and actions in the whole matrix, at most. */
const ACTIONS_PER_CATEGORY = 3;
const ACTIONS = 10;

/**
 * The text of an action of the matrix in a report language (English, as the matrix stores it, by
 * default), figures cited with `cite`: a topic's action and how many reviews name it ("Shorten the
 * wait for a table: 14 reviews mention it"); for a category with no topic, its negative mentions;
 * for results written before topics, the category's complaint phrases.
 */
export function actionText(
  row: Pick<ActionRow, "category" | "topic" | "reviews">,
  agg: Pick<Aggregates, "complaint_phrases">,
  negative: number,
  cite: Cite = plainCite,
  lang: NarrativeLanguage = en,
): string {
  if (row.topic !== undefined && row.reviews !== undefined)
    return lang.topicAction(row.topic, {
      text: citer(cite)(FIGURES.topic(row.topic, row.reviews)),
      n: row.reviews,
    });
  return actionFor(row.category as Category, agg.complaint_phrases?.[row.category], negative, cite, lang);
}

/**
 * The action for a category by its most frequent complaint phrases (results written before topics),
 * or by its negative mentions as a whole when it has none.
 */
export function actionFor(
  category: Category,
  phrases: { phrase: string; reviews: number }[] | undefined,
  negative: number,
  cite: Cite = plainCite,
  lang: NarrativeLanguage = en,
): string {
  const top = (phrases ?? []).slice(0, 3);
  const figure = citer(cite);
  const name = lang.category(category);
  if (!top.length)
    return lang.readNegative(name, { text: figure(FIGURES.negativeMentions(category, negative)), n: negative });
  return lang.fixPhrases(
    name,
    top.map((p, i) => ({ phrase: p.phrase, reviews: { text: figure(FIGURES.phrase(category, i, p)), n: p.reviews } })),
  );
}

/**
 * Risk of a category from 0 to 100: the share of its mentions that are negative plus the share that
 * are critical (health and safety) once more, capped at 100. High from 50, medium from 25.
 */
export function riskScorecard(agg: Aggregates): RiskRow[] {
  return agg.categories
    .filter((c) => c.mentions > 0)
    .map((c) => {
      const crit = c.issues.critical;
      const risk_score = Math.min(100, Math.round(c.negative_pct + (crit / c.mentions) * 100));
      const risk_level: RiskRow["risk_level"] = risk_score >= 50 ? "high" : risk_score >= 25 ? "medium" : "low";
      return {
        category: c.category,
        team: OWNER_TEAMS[c.category],
        risk_level,
        risk_score,
        mentions: c.mentions,
        negative: c.negative,
        negative_pct: c.negative_pct,
        critical_issues: crit,
      };
    })
    .sort((a, b) => b.risk_score - a.risk_score || b.mentions - a.mentions || a.category.localeCompare(b.category));
}

/**
 * Critical and high issues grouped by category, with real quotes as evidence: sentences that name the
 * category's most frequent complaint topics (so each quote is about its category), else the category's
 * most negative sentences. A category people also praise (a strength) says so in its summary.
 */
export function criticalIssues(agg: Aggregates, strengths: readonly string[] = []): CriticalIssue[] {
  const groups = new Map<string, { severity: "critical" | "high"; issues: number }>();
  for (const c of agg.categories) {
    if (c.issues.critical) groups.set(c.category, { severity: "critical", issues: c.issues.critical });
    else if (c.issues.high) groups.set(c.category, { severity: "high", issues: c.issues.high });
  }
  return [...groups]
    .sort(
      (a, b) =>
        (a[1].severity === b[1].severity ? b[1].issues - a[1].issues : a[1].severity === "critical" ? -1 : 1) ||
        a[0].localeCompare(b[0]),
    )
    .slice(0, 5)
    .map(([category, g]) => {
      const stat = agg.categories.find((c) => c.category === category);
      const byTopic = (agg.topics?.[category] ?? []).flatMap((t) => t.quotes);
      const quotes = byTopic.length ? byTopic.slice(0, 3) : (agg.quotes[category]?.negative ?? []);
      return {
        category,
        team: OWNER_TEAMS[category as Category],
        severity: g.severity,
        issues: g.issues,
        summary: issueSummary(en, category, g, stat, strengths.includes(category)),
        quotes,
      };
    });
}

/**
 * The action matrix: for each category with complaints, in order of risk, one action per complaint
 * topic it names most (up to three, those named by at least two reviews, else its top one), or one
 * action over its negative mentions when no topic was found. Each action appears once in the report:
 * the action plan and the priorities refer to it, they do not repeat it.
 */
export function actionMatrix(scorecard: RiskRow[], agg: Pick<Aggregates, "topics" | "complaint_phrases">): ActionRow[] {
  const rows: Omit<ActionRow, "priority">[] = [];
  for (const r of scorecard) {
    if (r.negative === 0) continue;
    const category = r.category as Category;
    const topics = agg.topics?.[category] ?? [];
    const chosen = topics.filter((t) => t.reviews >= 2).slice(0, ACTIONS_PER_CATEGORY);
    if (!chosen.length && topics[0]) chosen.push(topics[0]);
    const base = {
      category,
      team: r.team,
      impact: r.risk_level,
      effort: EFFORT[category],
      timeframe: en.timeframe(r.risk_level),
    };
    if (chosen.length)
      for (const t of chosen)
        rows.push({
          ...base,
          topic: t.topic,
          reviews: t.reviews,
          action: actionText({ category, topic: t.topic, reviews: t.reviews }, agg, r.negative),
        });
    else rows.push({ ...base, action: actionText({ category }, agg, r.negative) });
  }
  return rows.slice(0, ACTIONS).map((row, i) => ({ priority: i + 1, ...row }));
}

/** KPIs to follow, with targets derived from the current values. */
export function trackingKpis(agg: Aggregates, scorecard: RiskRow[]): TrackingKpi[] {
  const kpis: TrackingKpi[] = [];
  const avg = agg.totals.average_rating;
  kpis.push({
    kpi: "average_rating",
    current: avg,
    target: avg === null ? 4 : Math.min(5, Math.round((avg + 0.2) * 10) / 10),
    unit: "stars",
    direction: "up",
  });
  kpis.push({
    kpi: "positive_share",
    current: agg.totals.positive_pct,
    target: Math.min(100, Math.round(agg.totals.positive_pct + 5)),
    unit: "%",
    direction: "up",
  });
  kpis.push({
    kpi: "negative_share",
    current: agg.totals.negative_pct,
    target: Math.max(0, Math.round(agg.totals.negative_pct / 2)),
    unit: "%",
    direction: "down",
  });
  const top = scorecard[0];
  if (top)
    kpis.push({
      kpi: `negative_share_${top.category}`,
      current: top.negative_pct,
      target: Math.round(top.negative_pct / 2),
      unit: "%",
      direction: "down",
    });
  kpis.push({
    kpi: "critical_reviews",
    current: agg.totals.critical_reviews ?? agg.totals.critical_issues,
    target: 0,
    unit: "reviews",
    direction: "down",
  });
  return kpis;
}

/**
 * Categories people praise most (positive share of mentions), passed through as raw items. A category
 * at medium or high risk, or with a health-and-safety issue, is no strength to protect, however much
 * it is praised: the report does not call a top risk its strongest asset.
 */
export function strengthsToProtect(agg: Aggregates, scorecard: readonly RiskRow[]): Record<string, unknown>[] {
  const atRisk = new Set(
    scorecard.filter((r) => r.risk_level !== "low" || r.critical_issues > 0).map((r) => r.category),
  );
  return agg.categories
    .filter((c) => c.mentions > 0 && c.positive > c.negative && !atRisk.has(c.category))
    .sort((a, b) => b.positive_pct - a.positive_pct || b.mentions - a.mentions)
    .slice(0, 3)
    .map((c: CategoryStat) => ({
      category: c.category,
      percentage: c.positive_pct,
      mentions: c.mentions,
      positive: c.positive,
      /** High and critical issues it also has (the narrative names both sides). */
      serious_issues: c.issues.high + c.issues.critical,
      top_quotes: (agg.quotes[c.category]?.positive ?? []).map((q) => q.text),
    }));
}

/** The summary of a category's issues in a report language (numbers in its style); a strength also says how often it is praised. */
export function issueSummary(
  lang: NarrativeLanguage,
  category: string,
  g: { severity: "critical" | "high"; issues: number },
  stat: CategoryStat | undefined,
  strength = false,
): string {
  const claim = (value: number, unit: string) => formatClaim({ value, unit }, lang.numbers);
  return lang.issueSummary({
    issues: { text: claim(g.issues, "issues"), n: g.issues },
    severity: g.severity,
    category: lang.category(category),
    share: claim(stat?.negative_pct ?? 0, "%"),
    mentions: claim(stat?.mentions ?? 0, "mentions"),
    praised: strength ? claim(stat?.positive_pct ?? 0, "%") : null,
  });
}
