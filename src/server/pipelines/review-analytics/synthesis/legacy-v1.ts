/**
 * A legacy (v1) report as older versions of the synthesis stage stored it: no report_version, no
 * executive_summary, flat sections. Still served and rendered; used by the demo data and the tests.
 */
export const LEGACY_V1_EXAMPLE = {
  generated_at: "2025-11-30T09:00:00.000Z",
  summary: "Guests like the food and the terrace; waiting times at weekend dinners draw most complaints.",
  sentiment_overview: { positive: 61, neutral: 12, negative: 27 },
  top_themes: [
    { theme: "food", mentions: 142, sentiment: "positive" },
    { theme: "waiting_time", mentions: 58, sentiment: "negative" },
    { theme: "ambience", mentions: 41, sentiment: "positive" },
  ],
  key_issues: [
    "Long waits for main courses on Friday and Saturday evenings",
    "Restrooms not cleaned often enough at peak times",
  ],
  recommendations: ["Add a second runner on weekend evenings", "Hourly restroom checks with a signed list"],
} as const;
