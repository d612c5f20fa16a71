import { describe, expect, it } from "vitest";
import type { ReviewLabel } from "../../types";
import { EvidenceBook, formatClaim, linkByValue, untag } from "./citations";
import type { TNarrative } from "./narrative";

const row = (id: string, over: Partial<ReviewLabel> = {}): ReviewLabel => ({
  review_id: id,
  kept: true,
  sentiment: "positive",
  critical: false,
  language: "en",
  rating: 5,
  month: "2026-03",
  weekday: 0,
  hour: 12,
  mentioned: [],
  positive: [],
  neutral: [],
  negative: [],
  issue_critical: [],
  issue_high: [],
  phrases: [],
  origin: null,
  place_key: null,
  ...over,
});

const narrative = (text: string): TNarrative => ({
  headline: text,
  narrative: "",
  sentiment_insights: [],
  category_insights: [],
  timeline_insights: [],
  action_plan: [],
  marketing_angles: [],
  priority_recommendations: [],
});

describe("citations", () => {
  it("records each figure with the reviews its filter selects, and untags to the plain text with spans", () => {
    const rows = [
      row("a"),
      row("b", { sentiment: "negative", rating: 1 }),
      row("c"),
      row("d", { kept: false, sentiment: null }),
    ];
    const book = new EvidenceBook(rows);
    const tagged = `${book.cite("reviews", { value: 3, unit: "reviews", filter: { kept: true } })} reviews, ${book.cite("positive_pct", { value: 66.7, unit: "%", filter: { sentiment: "positive" }, of: { has_text: true } })} positive`;
    const { text, spans } = untag(tagged);
    expect(text).toBe("3 reviews, 66.7% positive");
    expect(spans).toEqual([
      { start: 0, end: 1, ref: "reviews" },
      { start: 11, end: 16, ref: "positive_pct" },
    ]);
    expect(book.entries.reviews).toMatchObject({ reviews: 3, review_ids: ["a", "b", "c"] });
    expect(book.entries.positive_pct).toMatchObject({ reviews: 2, review_ids: ["a", "c"], of: { reviews: 3 } });
    // One ref, two different figures: a writer's mistake.
    expect(() => book.cite("reviews", { value: 4, unit: "reviews", filter: {} })).toThrow(/two figures/);
    expect(formatClaim({ value: 12345, unit: "reviews" })).toBe("12,345");
  });

  it("links a language model's figures by value: numbers, shares with %, months; unknown numbers stay plain", () => {
    const book = new EvidenceBook([row("a"), row("b")]);
    book.cite("reviews", { value: 1234, unit: "reviews", filter: {} });
    book.cite("positive_pct", { value: 48.25, unit: "%", filter: { sentiment: "positive" } });
    book.cite("month.2026-03", { value: 2, unit: "month", text: "2026-03", filter: { month: "2026-03" } });
    const text = "Across 1,234 reviews, 48.3% were positive; March (2026-03) was busiest; 77 tables.";
    const links = linkByValue(narrative(text), book.entries);
    expect(links.map((l) => [text.slice(l.start, l.end), l.ref])).toEqual([
      ["2026-03", "month.2026-03"],
      ["1,234", "reviews"],
      ["48.3%", "positive_pct"],
    ]);
  });
});
