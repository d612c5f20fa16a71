// Issue 46, point 6: the report's "How the places compare" in en, es and de keeps the narrative's
// guarantees: every number is a cited figure written in the language's style, linked where it is
// written, with its reviews; plurals agree; Spanish and German hold no English template words.
import { describe, expect, it } from "vitest";
import { aggregate } from "../aggregate";
import { classify } from "../classify";
import { labelRows } from "../evidence";
import { normalize } from "../normalize";
import { comparePlaces, type PlaceComparison } from "../place-comparison";
import { route } from "../route";
import { EvidenceBook, formatClaim, plainCiteIn } from "./citations";
import { buildFacts } from "./facts";
import { NARRATIVE_LANGUAGES, REPORT_LANGUAGES } from "./lang";
import { allowedNumbers, inventedNumbers, numbersIn } from "./numbers";
import { placesSection, placesSectionTexts } from "./place-section";
import { synthesize } from "./synthesize";
import { labelledDevReviews, rng } from "@/test/analytics-runs";

const ORIGIN = "https://a.test";
const PLACES = [
  { key: "trattoria", name: "Trattoria Roma" },
  { key: "bistro", name: "Bistro Nord" },
  { key: "cafe", name: null },
];

function run(seed: number) {
  const rand = rng(seed);
  const raw = labelledDevReviews
    .filter(() => rand() < 0.3)
    .map((r, i) => ({ ...r, origin: ORIGIN, placeKey: PLACES[i % 3]!.key }));
  const routed = route(classify(normalize(raw).output).output).output;
  const agg = aggregate(routed, raw.length).output;
  const rows = labelRows(routed, raw, agg.complaint_phrases);
  const places = PLACES.map((p) => ({
    place_key: p.key,
    origin: ORIGIN,
    name: p.name,
    reviews: raw.filter((r) => r.placeKey === p.key).length,
  }));
  agg.place_comparison = comparePlaces(rows, places)!;
  return { agg, rows, places };
}

const SEEDS = [1, 2, 3, 4, 5];

describe.each(REPORT_LANGUAGES)("How the places compare, in %s", (code) => {
  const L = NARRATIVE_LANGUAGES[code];

  it.each(SEEDS)("seed %i: every number is a cited figure, linked where written, counting its reviews", (seed) => {
    const { agg, rows, places } = run(seed);
    const book = new EvidenceBook(rows);
    const texts = placesSectionTexts(agg.place_comparison, book.citeIn(L.numbers), code, true)!;
    expect(texts.places_compared.length).toBeGreaterThanOrEqual(3);
    // The same text as written without evidence.
    expect(texts.places_compared).toEqual(placesSection(agg.place_comparison, plainCiteIn(L.numbers), code));
    const allowed = allowedNumbers(buildFacts(agg, places));
    for (const [i, line] of texts.places_compared.entries()) {
      expect(inventedNumbers(line, allowed, L.numbers), line).toEqual([]);
      let rest = line;
      const mine = texts.places_compared_links!.filter((l) => l.index === i).sort((a, b) => b.start - a.start);
      for (const l of mine) {
        expect(line.slice(l.start, l.end), l.ref).toBe(formatClaim(book.entries[l.ref]!, L.numbers));
        rest = rest.slice(0, l.start) + " ".repeat(l.end - l.start) + rest.slice(l.end);
      }
      // Every number of the section is a link to its reviews.
      expect(numbersIn(rest, L.numbers), line).toEqual([]);
    }
    for (const [ref, e] of Object.entries(book.entries)) {
      if (e.unit === "reviews" || e.unit === "mentions") expect(e.reviews, ref).toBe(e.value);
      expect(e.review_ids.length, ref).toBe(Math.min(20, e.reviews));
    }
    // The first place named is the one with most reviews; a place without a name is named by its key.
    const first = agg.place_comparison!.places[0]!;
    expect(texts.places_compared[0]).toContain(first.name ?? first.place_key);
    expect(texts.places_compared.join(" ")).toContain("cafe");
  });

  it("cites the same figures as English", () => {
    const { agg, rows } = run(2);
    const english = new EvidenceBook(rows);
    placesSection(agg.place_comparison, english.citeIn(NARRATIVE_LANGUAGES.en.numbers), "en");
    const book = new EvidenceBook(rows);
    placesSection(agg.place_comparison, book.citeIn(L.numbers), code);
    expect(Object.keys(book.entries).sort()).toEqual(Object.keys(english.entries).sort());
  });
});

/** A hand-made comparison: two places, big counts and a single mention, for plurals and number styles. */
const HAND: PlaceComparison = {
  places: [
    { place_key: "a", origin: ORIGIN, name: "Alpha", reviews: 12345, average_rating: 4.5 },
    { place_key: "b", origin: ORIGIN, name: "Beta", reviews: 1, average_rating: 1 },
  ],
  places_total: 2,
  categories: [
    {
      category: "waiting_time",
      mentions: 1240,
      cells: [
        { mentions: 1234, positive: 700, negative: 100, positive_pct: 56.7, negative_pct: 8.1, score: 49 },
        { mentions: 6, positive: 0, negative: 5, positive_pct: 0, negative_pct: 83.3, score: -83 },
      ],
    },
  ],
};

describe("the section's wording", () => {
  it("writes numbers and plurals each language's way", () => {
    const [en, es, de] = (["en", "es", "de"] as const).map((l) =>
      placesSection(HAND, plainCiteIn(NARRATIVE_LANGUAGES[l].numbers), l),
    );
    expect(en).toEqual([
      "Compared: Alpha (12,345 reviews, 4.5 stars) and Beta (1 review, 1 star).",
      "A category's score is the share of its positive mentions minus the share of its negative ones, in points.",
      "Waiting time: Alpha leads with a score of 49 (1,234 mentions), ahead of Beta with -83 (6 mentions).",
      "Biggest gap: waiting time (Alpha 49, Beta -83).",
    ]);
    expect(es![0]).toBe("Se comparan: Alpha (12.345 reseñas, 4,5 estrellas) y Beta (1 reseña, 1 estrella).");
    expect(es![2]).toBe(
      "Tiempo de espera: Alpha va en cabeza con una puntuación de 49 (1234 menciones), por delante de Beta con -83 (6 menciones).",
    );
    expect(es![3]).toBe("Mayor diferencia: tiempo de espera (Alpha 49, Beta -83).");
    expect(de![0]).toBe("Verglichen werden: Alpha (12.345 Bewertungen, 4,5 Sterne) und Beta (1 Bewertung, 1 Stern).");
    expect(de![2]).toBe(
      "Wartezeit: Alpha liegt vorn mit einem Wert von 49 (1.234 Erwähnungen), vor Beta mit -83 (6 Erwähnungen).",
    );
    expect(de![3]).toBe("Größter Unterschied: Wartezeit (Alpha 49, Beta -83).");
    for (const text of [...es!, ...de!]) {
      expect(text).not.toMatch(/\b(reviews?|mentions?|stars?|places?|score|leads|ahead|the|of|and|with)\b/);
      expect(text).not.toMatch(/_/);
    }
  });

  it("says so when no category has enough mentions at two places, and is empty for one place", () => {
    const thin: PlaceComparison = {
      ...HAND,
      categories: [
        {
          category: "food",
          mentions: 3,
          cells: [
            { mentions: 2, positive: 2, negative: 0, positive_pct: 100, negative_pct: 0, score: 100 },
            { mentions: 1, positive: 0, negative: 1, positive_pct: 0, negative_pct: 100, score: -100 },
          ],
        },
      ],
    };
    expect(placesSection(thin, plainCiteIn(NARRATIVE_LANGUAGES.en.numbers), "en").at(-1)).toBe(
      "No category has enough mentions at two places to compare them yet.",
    );
    const one = { ...HAND, places: HAND.places.slice(0, 1), categories: [] };
    for (const l of REPORT_LANGUAGES)
      expect(placesSection(one, plainCiteIn(NARRATIVE_LANGUAGES[l].numbers), l)).toEqual([]);
  });

  it("synthesize stores the section in every language with its links and evidence; not for one place", async () => {
    const { agg, rows, places } = run(3);
    const report = (await synthesize(agg, { now: () => new Date("2026-12-02T00:00:00Z"), places, labels: rows }))
      .output;
    expect(report.place_comparison?.places).toHaveLength(3);
    for (const l of REPORT_LANGUAGES) {
      const n = report.narratives![l]!;
      expect(n.places_compared!.length).toBeGreaterThanOrEqual(3);
      for (const link of n.places_compared_links!) {
        const entry = report.evidence![link.ref]!;
        expect(n.places_compared![link.index]!.slice(link.start, link.end)).toBe(
          formatClaim(entry, NARRATIVE_LANGUAGES[l].numbers),
        );
      }
    }
    const solo = run(3);
    solo.agg.place_comparison = comparePlaces(solo.rows, solo.places.slice(0, 1))!;
    const alone = (
      await synthesize(solo.agg, { now: () => new Date(), places: solo.places.slice(0, 1), labels: solo.rows })
    ).output;
    expect(alone.place_comparison).toBeUndefined();
    expect(alone.narratives!.en!.places_compared).toBeUndefined();
  });
});
