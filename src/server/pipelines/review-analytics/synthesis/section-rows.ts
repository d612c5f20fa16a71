// The rows of the report's computed sections (risk scorecard, critical issues, action matrix, tracking KPIs).

export interface ReportQuote {
  review_id: string;
  text: string;
  rating: number | null;
  language: string;
}

export interface RiskRow {
  category: string;
  team: string;
  risk_level: "high" | "medium" | "low";
  risk_score: number;
  mentions: number;
  negative: number;
  negative_pct: number;
  critical_issues: number;
}

export interface CriticalIssue {
  category: string;
  team: string;
  severity: "critical" | "high";
  issues: number;
  summary: string;
  quotes: ReportQuote[];
}

export interface ActionRow {
  priority: number;
  category: string;
  team: string;
  /** The complaint topic the action is about (topic-vocabulary.ts), with how many reviews name it; absent: the category's negative mentions as a whole. */
  topic?: string;
  reviews?: number;
  action: string;
  impact: "high" | "medium" | "low";
  effort: "high" | "medium" | "low";
  timeframe: string;
}

export interface TrackingKpi {
  kpi: string;
  current: number | null;
  target: number;
  unit: string;
  direction: "up" | "down";
}
