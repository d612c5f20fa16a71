import type { WidgetData, WidgetDefinition } from "../types";
import type { Aggregates } from "./aggregates";
import { placesComparedWidget } from "./place-comparison";
import { CATEGORIES } from "./taxonomy";

/** The review-analytics dashboard: every widget kind at least once. */
export const REVIEW_ANALYTICS_DASHBOARD: WidgetDefinition[] = [
  {
    id: "total_reviews",
    kind: "StatCard",
    title: "Reviews analysed",
    description: "Reviews after duplicates and empty ones were removed",
    width: 3,
    options: { format: "integer" },
  },
  {
    id: "average_rating",
    kind: "StatCard",
    title: "Average rating",
    description: "Mean star rating (1 to 5)",
    width: 3,
    options: { format: "decimal", unit: "★" },
  },
  {
    id: "positive_share",
    kind: "StatCard",
    title: "Positive texts",
    description: "Share of texts with positive sentiment",
    width: 3,
    options: { format: "percent" },
  },
  {
    id: "critical_issues",
    kind: "StatCard",
    title: "Critical reviews",
    description: "Reviews reporting a health-and-safety problem, each counted once",
    width: 3,
    options: { format: "integer", tone: "danger" },
  },
  {
    id: "sentiment_over_time",
    kind: "LineChart",
    title: "Sentiment per month",
    description: "Positive, neutral and negative texts per month",
    width: 6,
    options: { x: "month" },
  },
  {
    id: "rating_over_time",
    kind: "LineChart",
    title: "Rating per month",
    description: "Average star rating per month",
    width: 6,
    options: { x: "month", domain: [1, 5] },
  },
  {
    id: "rating_distribution",
    kind: "BarChart",
    title: "Rating distribution",
    description: "Reviews per star rating",
    width: 4,
    options: { x: "rating" },
  },
  {
    id: "categories",
    kind: "BarChart",
    title: "Categories",
    description: "Positive and negative mentions per category",
    width: 8,
    options: { x: "category", stacked: true },
  },
  {
    id: "places_compared",
    kind: "BarChart",
    title: "Places compared",
    description: "Score per category and place: positive minus negative share of its mentions",
    width: 12,
    options: { x: "category", compare: "places" },
  },
  {
    id: "languages",
    kind: "PieChart",
    title: "Languages",
    description: "Reviews per detected language",
    width: 4,
    options: {},
  },
  {
    id: "sentiment_split",
    kind: "PieChart",
    title: "Sentiment split",
    description: "Texts per sentiment",
    width: 4,
    options: {},
  },
  {
    id: "issues_by_team",
    kind: "BarChart",
    title: "Issues per team",
    description: "Routed issues per owner team and severity",
    width: 4,
    options: { x: "team", stacked: true },
  },
  {
    id: "weekday_hour",
    kind: "Heatmap",
    title: "When reviews are written",
    description: "Reviews per weekday and hour (UTC)",
    width: 12,
    options: {},
  },
  {
    id: "category_month",
    kind: "Heatmap",
    title: "Negative mentions per category and month",
    description: "Negative mentions of each category per month",
    width: 12,
    options: {},
  },
  {
    id: "top_issues",
    kind: "DataTable",
    title: "Top issues",
    description: "Most severe routed issues",
    width: 12,
    options: {},
  },
  {
    id: "complaint_topics",
    kind: "DataTable",
    title: "Complaint topics",
    description: "What the complaints name, under their category: reviews per topic",
    width: 12,
    options: {},
  },
  {
    id: "reply_rate",
    kind: "StatCard",
    title: "Reply rate",
    description: "Share of the reviews with an owner reply on the platform",
    width: 3,
    options: { format: "percent" },
  },
  {
    id: "median_response_time",
    kind: "StatCard",
    title: "Median response time (days)",
    description: "Days from a review to its owner reply, over the replies with both dates",
    width: 3,
    options: { format: "decimal" },
  },
  {
    id: "replies_over_time",
    kind: "LineChart",
    title: "Replies per month",
    description: "Reply rate (%) and median response time (days) by month of publication",
    width: 6,
    options: { x: "month", chart: "reply_kpis" },
  },
];

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The data of one widget from a stored review-analytics result (null for an unknown widget id). */
export function reviewAnalyticsWidgetData(widgetId: string, raw: Record<string, unknown>): WidgetData | null {
  const a = raw as unknown as Aggregates;
  switch (widgetId) {
    case "total_reviews":
      return {
        kind: "StatCard",
        value: a.totals.reviews,
        unit: null,
        label: "reviews",
        secondary: `${a.totals.reviews_in}`,
      };
    case "average_rating":
      return {
        kind: "StatCard",
        value: a.totals.average_rating ?? 0,
        unit: "★",
        label: "average_rating",
        secondary: null,
      };
    case "positive_share":
      return {
        kind: "StatCard",
        value: a.totals.positive_pct,
        unit: "%",
        label: "positive_share",
        secondary: `${a.totals.negative_pct}`,
      };
    case "critical_issues":
      return {
        kind: "StatCard",
        value: a.totals.critical_reviews ?? a.totals.critical_issues,
        unit: null,
        label: "critical_reviews",
        secondary: `${a.totals.reviews}`,
      };
    case "reply_rate":
      return a.replies
        ? {
            kind: "StatCard",
            value: a.replies.reply_rate,
            unit: "%",
            label: "reply_rate",
            secondary: `${a.replies.replied}/${a.replies.reviews}`,
          }
        : null;
    case "median_response_time":
      // No reply with both dates: no figure rather than a 0 that reads as "answered at once".
      return a.replies && a.replies.median_response_days !== null
        ? {
            kind: "StatCard",
            value: a.replies.median_response_days,
            unit: null,
            label: "median_response_days",
            secondary: `${a.replies.timed}`,
          }
        : null;
    case "replies_over_time":
      return a.replies
        ? {
            kind: "LineChart",
            x_key: "month",
            series: ["reply_rate", "median_response_days"],
            rows: a.replies.by_month.map((m) => ({
              month: m.month,
              reply_rate: m.reply_rate,
              ...(m.median_response_days !== null ? { median_response_days: m.median_response_days } : {}),
            })),
          }
        : null;
    case "sentiment_over_time":
      return {
        kind: "LineChart",
        x_key: "month",
        series: ["positive", "neutral", "negative", "mixed"],
        rows: a.timeline.map((m) => ({
          month: m.month,
          positive: m.positive,
          neutral: m.neutral,
          negative: m.negative,
          mixed: m.mixed ?? 0,
        })),
      };
    case "rating_over_time":
      return {
        kind: "LineChart",
        x_key: "month",
        series: ["average_rating"],
        rows: a.timeline
          .filter((m) => m.average_rating !== null)
          .map((m) => ({ month: m.month, average_rating: m.average_rating as number })),
      };
    case "rating_distribution":
      return {
        kind: "BarChart",
        x_key: "rating",
        series: ["count"],
        rows: a.rating_distribution.map((r) => ({ rating: `${r.rating}★`, count: r.count })),
      };
    case "categories":
      return {
        kind: "BarChart",
        x_key: "category",
        series: ["positive", "neutral", "negative"],
        rows: a.categories.map((c) => ({
          category: c.category,
          positive: c.positive,
          neutral: c.neutral,
          negative: c.negative,
        })),
      };
    case "places_compared":
      return placesComparedWidget(a.place_comparison);
    case "issues_by_team":
      return {
        kind: "BarChart",
        x_key: "team",
        series: ["critical", "high", "medium", "low"],
        rows: a.teams.map((t) => ({ team: t.team, critical: t.critical, high: t.high, medium: t.medium, low: t.low })),
      };
    case "languages":
      return { kind: "PieChart", slices: a.languages.map((l) => ({ name: l.language, value: l.count })) };
    case "sentiment_split":
      return {
        kind: "PieChart",
        slices: (["positive", "neutral", "negative", "mixed"] as const).map((k) => ({
          name: k,
          value: a.totals[k] ?? 0,
        })),
      };
    case "weekday_hour":
      return {
        kind: "Heatmap",
        x_labels: Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0")),
        y_labels: WEEKDAYS,
        cells: a.weekday_hour.flatMap((row, y) => row.map((value, x) => ({ x, y, value }))),
      };
    case "category_month": {
      const months = [...new Set(a.categories_by_month.map((c) => c.month))].sort();
      const cells = a.categories_by_month.map((c) => ({
        x: months.indexOf(c.month),
        y: CATEGORIES.indexOf(c.category),
        value: c.negative,
      }));
      return { kind: "Heatmap", x_labels: months, y_labels: [...CATEGORIES], cells };
    }
    case "top_issues":
      return {
        kind: "DataTable",
        columns: ["severity", "category", "team", "rating", "excerpt", "published_at"],
        rows: a.top_issues.map((i) => ({
          severity: i.severity,
          category: i.category,
          team: i.team,
          rating: i.rating,
          excerpt: i.excerpt,
          published_at: i.published_at,
        })),
      };
    case "complaint_topics":
      // Topics (topics.ts) a reader recognises, most named first; results from before topics show
      // their two-word phrases in the same columns.
      return {
        kind: "DataTable",
        columns: ["topic", "category", "reviews"],
        rows: a.topics
          ? Object.entries(a.topics)
              .flatMap(([category, list]) => list.map((t) => ({ topic: t.topic, category, reviews: t.reviews })))
              .sort((x, y) => y.reviews - x.reviews || x.topic.localeCompare(y.topic))
          : a.top_phrases.map((p) => ({ topic: p.phrase, category: null, reviews: p.count })),
      };
    default:
      return null;
  }
}
