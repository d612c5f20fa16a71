import { describe, expect, it } from "vitest";
import { aggregate } from "./aggregate";
import { classify } from "./classify";
import { detectLanguage } from "./language";
import type { RawReview } from "./model";
import { normalize } from "./normalize";
import { route } from "./route";
import { compound, polarityOf as labelOf, scoreTokens } from "./sentiment";
import { categoriesOf } from "./categories";
import { cleanText, tokenize } from "./text";

const at = (iso: string) => new Date(iso);
const review = (
  id: string,
  text: string | null,
  rating: number | null,
  publishedAt = "2026-03-02T20:15:00Z",
  language: string | null = null,
): RawReview => ({
  id,
  author: "A",
  rating,
  text,
  language,
  publishedAt: at(publishedAt),
});

// Fixed inputs in the three languages of the demo platform.
const FIXED: RawReview[] = [
  review("en1", "The food was <b>delicious</b> and our waiter was very friendly.", 5, "2026-03-02T20:15:00Z"),
  review("en2", "We waited 45 minutes for cold food. The waiter was rude!", 1, "2026-03-09T21:40:00Z"),
  review("es1", "La comida estaba riquísima y el camarero fue muy amable.", 5, "2026-04-04T13:05:00Z"),
  review("es2", "Demasiado caro y el baño estaba sucio.", 2, "2026-04-05T13:30:00Z"),
  review("de1", "Das Essen war sehr lecker und die Bedienung freundlich.", 5, "2026-04-06T19:00:00Z"),
  review(
    "de2",
    "Ich habe ein Haar im Salat gefunden, ekelhaft. Die Toilette war schmutzig.",
    1,
    "2026-04-06T19:45:00Z",
  ),
  review("en1-dup", "the food was delicious and our waiter was VERY friendly", 5, "2026-03-03T10:00:00Z"),
  review("en1", "same id again", 4),
  review("empty", "   ", null),
  review("rating-only", null, 4, "2026-04-07T12:00:00Z"),
];

describe("text and language", () => {
  it("cleans markup, entities and spaces", () => {
    expect(cleanText("  Great&amp;cheap <br/>pizza\u0000 <i>here</i>  ")).toBe("Great&cheap pizza here");
    expect(tokenize("Don't wait: 45 Minuten!")).toEqual(["don't", "wait", "45", "minuten"]);
  });

  it("detects en, es and de, and keeps the hint when nothing decides", () => {
    expect(detectLanguage("The food was great and the staff very friendly")).toBe("en");
    expect(detectLanguage("La comida estaba muy buena pero el servicio fue lento")).toBe("es");
    expect(detectLanguage("Das Essen war gut, aber die Bedienung war sehr langsam")).toBe("de");
    expect(detectLanguage("Pizza!!!", "de-DE")).toBe("de");
    expect(detectLanguage("Pizza!!!", "fr")).toBe("unknown");
  });
});

describe("sentiment lexicons", () => {
  it("scores each language with negation and boosters", () => {
    expect(scoreTokens(tokenize("the food was delicious"), "en")).toBe(4);
    // A negated positive word turns negative, a little weaker (x -0.8); a booster multiplies (very: 1.5).
    expect(scoreTokens(tokenize("the food was not delicious"), "en")).toBeCloseTo(-3.2);
    expect(scoreTokens(tokenize("very good"), "en")).toBe(3);
    expect(scoreTokens(tokenize("la comida no estaba buena"), "es")).toBeCloseTo(-1.6);
    expect(scoreTokens(tokenize("muy rica"), "es")).toBe(4.5);
    expect(scoreTokens(tokenize("die Bedienung war unfreundlich"), "de")).toBe(-3);
    expect(scoreTokens(tokenize("das Essen war nicht lecker"), "de")).toBeCloseTo(-2.4);
    expect(scoreTokens(tokenize("great"), "unknown")).toBe(0);
    expect(labelOf(1)).toBe("positive");
    expect(labelOf(0.5)).toBe("neutral");
    expect(labelOf(-1)).toBe("negative");
    expect(compound(4)).toBe(0.718);
  });

  it("tags categories with words, stems and phrases per language", () => {
    expect(categoriesOf(tokenize("We waited ages and the waiter was rude"), "en")).toEqual(["service", "waiting_time"]);
    expect(categoriesOf(tokenize("Buena relación calidad precio"), "es")).toEqual(["price"]);
    expect(categoriesOf(tokenize("Die Toiletten waren schmutzig"), "de")).toEqual(["cleanliness"]);
    expect(categoriesOf(tokenize("Nothing to say"), "en")).toEqual([]);
  });
});

describe("stages on fixed inputs", () => {
  const normalized = normalize(FIXED);
  const classified = classify(normalized.output);
  const routed = route(classified.output);
  const agg = aggregate(routed.output, FIXED.length);

  it("normalize drops duplicates and empty reviews and detects the language", () => {
    expect(normalized.output.map((r) => [r.id, r.language])).toEqual([
      ["en1", "en"],
      ["en2", "en"],
      ["es1", "es"],
      ["es2", "es"],
      ["de1", "de"],
      ["de2", "de"],
      ["rating-only", "unknown"],
    ]);
    expect(normalized.output[0]?.text).toBe("The food was delicious and our waiter was very friendly.");
    expect(normalized.warnings).toEqual(["2 duplicate reviews dropped", "1 reviews without text or rating dropped"]);
  });

  it("classify gives sentiment and category mentions per sentence", () => {
    const by = new Map(classified.output.map((r) => [r.id, r]));
    // 4 (delicious) + 1.5 x 2 (very friendly) + 2.5 (five stars as evidence).
    expect(by.get("en1")).toMatchObject({ label: "positive", sentiment: 9.5 });
    expect(by.get("en1")?.mentions.map((m) => [m.category, m.polarity])).toEqual([
      ["food", "positive"],
      ["service", "positive"],
    ]);
    expect(by.get("en2")?.label).toBe("negative");
    expect(by.get("en2")?.mentions.map((m) => [m.category, m.polarity])).toEqual([
      ["food", "negative"],
      ["waiting_time", "negative"],
      ["service", "negative"],
    ]);
    expect(by.get("es1")?.mentions.map((m) => m.category)).toEqual(["food", "service"]);
    expect(by.get("es2")?.mentions.map((m) => [m.category, m.polarity])).toEqual([
      ["price", "negative"],
      ["cleanliness", "negative"],
    ]);
    expect(by.get("de1")).toMatchObject({ label: "positive" });
    expect(by.get("de2")).toMatchObject({ label: "negative", critical: true, hazards: ["foreign_object"] });
    // No text: the stars alone (4: positive); no mentions.
    expect(by.get("rating-only")).toMatchObject({ label: "positive", mentions: [] });
  });

  it("route sends negative mentions to owner teams with a severity", () => {
    expect(routed.output.issues.map((i) => [i.review_id, i.category, i.team, i.severity])).toEqual([
      ["en2", "food", "kitchen", "high"],
      ["en2", "waiting_time", "operations", "high"],
      ["en2", "service", "front_of_house", "high"],
      ["es2", "price", "management", "high"],
      ["es2", "cleanliness", "facilities", "high"],
      ["de2", "food", "kitchen", "critical"],
      ["de2", "cleanliness", "facilities", "critical"],
    ]);
  });

  it("aggregate counts ratings, months, weekday x hour, categories and phrases", () => {
    const a = agg.output;
    expect(a.totals).toMatchObject({
      reviews_in: 10,
      reviews: 7,
      with_text: 6,
      average_rating: 3.29,
      positive: 3,
      negative: 3,
      neutral: 0,
      mixed: 0,
      issues: 7,
      critical_issues: 2,
      critical_reviews: 1,
    });
    expect(a.rating_distribution).toEqual([
      { rating: 1, count: 2 },
      { rating: 2, count: 1 },
      { rating: 3, count: 0 },
      { rating: 4, count: 1 },
      { rating: 5, count: 3 },
    ]);
    expect(a.timeline.map((m) => [m.month, m.reviews, m.positive, m.negative])).toEqual([
      ["2026-03", 2, 1, 1],
      ["2026-04", 5, 2, 2],
    ]);
    expect(a.languages).toEqual([
      { language: "de", count: 2 },
      { language: "en", count: 2 },
      { language: "es", count: 2 },
      { language: "unknown", count: 1 },
    ]);
    // 2026-03-02 is a Monday (0), 20h; 2026-04-06 is a Monday, 19h twice.
    expect(a.weekday_hour[0]?.[20]).toBe(1);
    expect(a.weekday_hour[0]?.[19]).toBe(2);
    expect(a.weekday_hour.flat().reduce((s, n) => s + n, 0)).toBe(7);
    const food = a.categories.find((c) => c.category === "food");
    expect(food).toMatchObject({
      mentions: 5,
      positive: 3,
      negative: 2,
      percentage: 83.3,
      issues: { critical: 1, high: 1, medium: 0, low: 0 },
    });
    expect(a.teams[0]).toMatchObject({ team: "facilities", issues: 2 });
    expect(a.quotes.cleanliness?.negative.map((q) => q.review_id).sort()).toEqual(["de2", "es2"]);
    expect(a.top_issues[0]?.severity).toBe("critical");
  });
});
