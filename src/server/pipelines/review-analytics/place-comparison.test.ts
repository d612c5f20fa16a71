// Issue 46, point 6: the comparison of places is counted over the run's label rows as the dashboard
// counts categories, and its figures are exactly the reviews their evidence filters select.
import { describe, expect, it } from "vitest";
import type { ReviewLabel } from "../types";
import { labelRows, matchesFilter } from "./evidence";
import { classify } from "./classify";
import { normalize } from "./normalize";
import { route } from "./route";
import { aggregate } from "./aggregate";
import {
  biggestGaps,
  comparePlaces,
  MAX_COMPARED_PLACES,
  MIN_RANKED_MENTIONS,
  netScore,
  placesComparedWidget,
  ranked,
} from "./place-comparison";
import { labelledDevReviews, rng } from "@/test/analytics-runs";

const ORIGIN = "https://a.test";
const KEYS = ["casa-a", "casa-b", "casa-c"];

function run(seed: number) {
  const rand = rng(seed);
  const raw = labelledDevReviews
    .filter(() => rand() < 0.25)
    .map((r, i) => ({ ...r, origin: ORIGIN, placeKey: KEYS[i % 3] as string }));
  const routed = route(classify(normalize(raw).output).output).output;
  const agg = aggregate(routed, raw.length).output;
  const rows = labelRows(routed, raw, agg.complaint_phrases);
  const places = KEYS.map((k) => ({
    place_key: k,
    origin: ORIGIN,
    name: k === "casa-a" ? "Casa A" : null,
    reviews: raw.filter((r) => r.placeKey === k).length,
  }));
  return { agg, rows, places };
}

/** A label row with only what the comparison reads. */
const row = (id: string, place: string, p: Partial<ReviewLabel>): ReviewLabel => ({
  review_id: id,
  kept: true,
  sentiment: "neutral",
  critical: false,
  language: "en",
  rating: null,
  month: null,
  weekday: null,
  hour: null,
  mentioned: [],
  positive: [],
  neutral: [],
  negative: [],
  issue_critical: [],
  issue_high: [],
  phrases: [],
  origin: ORIGIN,
  place_key: place,
  ...p,
});

describe("comparePlaces", () => {
  it.each([1, 2, 3, 4])(
    "seed %i: every cell is its place's label rows of the category, summed to the dashboard's",
    (seed) => {
      const { agg, rows, places } = run(seed);
      const pc = comparePlaces(rows, places)!;
      expect(pc.places.map((p) => p.place_key).sort()).toEqual([...KEYS].sort());
      for (const [i, p] of pc.places.entries()) {
        const place = { place: { origin: p.origin, place_key: p.place_key } };
        expect(p.reviews).toBe(rows.filter((r) => matchesFilter(r, { kept: true, ...place })).length);
        for (const c of pc.categories) {
          const cell = c.cells[i]!;
          const count = (polarity: "mentioned" | "positive" | "negative") =>
            rows.filter((r) => matchesFilter(r, { ...place, category: { name: c.category, polarity } })).length;
          expect(cell.mentions).toBe(count("mentioned"));
          expect(cell.positive).toBe(count("positive"));
          expect(cell.negative).toBe(count("negative"));
          expect(cell.score).toBe(netScore(cell.positive, cell.negative, cell.mentions));
        }
      }
      // Over all places, a category's mentions are the dashboard's (the categories widget).
      for (const c of pc.categories) {
        const stat = agg.categories.find((s) => s.category === c.category)!;
        expect(c.mentions).toBe(stat.mentions);
        expect(c.cells.reduce((n, x) => n + x.negative, 0)).toBe(stat.negative);
        expect(c.cells.reduce((n, x) => n + x.positive, 0)).toBe(stat.positive);
      }
    },
  );

  it("scores are positive minus negative share in whole points, null without mentions; ranking needs enough mentions", () => {
    expect(netScore(3, 1, 4)).toBe(50);
    expect(netScore(0, 2, 3)).toBe(-67);
    expect(netScore(0, 0, 0)).toBeNull();
    const rows = [
      ...Array.from({ length: 4 }, (_, i) =>
        row(`a${i}`, "casa-a", { rating: 5, mentioned: ["food"], positive: ["food"] }),
      ),
      ...Array.from({ length: 3 }, (_, i) =>
        row(`b${i}`, "casa-b", { rating: i + 1, mentioned: ["food"], negative: ["food"] }),
      ),
      row("c0", "casa-c", { rating: 4, mentioned: ["food", "price"], positive: ["food"], negative: ["price"] }),
      row("c1", "casa-c", { kept: false, mentioned: ["food"], positive: ["food"] }),
      row("x0", "elsewhere", { mentioned: ["food"], positive: ["food"] }),
    ];
    const places = KEYS.map((k) => ({ place_key: k, origin: ORIGIN, name: null, reviews: 0 }));
    const pc = comparePlaces(rows, places)!;
    expect(pc.places.map((p) => [p.place_key, p.reviews, p.average_rating])).toEqual([
      ["casa-a", 4, 5],
      ["casa-b", 3, 2],
      ["casa-c", 1, 4],
    ]);
    const food = pc.categories.find((c) => c.category === "food")!;
    expect(food.mentions).toBe(8);
    expect(food.cells.map((c) => c.score)).toEqual([100, -100, 100]);
    // casa-c has one mention: shown, never ranked (fewer than MIN_RANKED_MENTIONS).
    expect(MIN_RANKED_MENTIONS).toBeGreaterThan(1);
    expect(ranked(food.cells).map((r) => r.place)).toEqual([0, 1]);
    expect(biggestGaps(pc)).toEqual([
      {
        category: "food",
        best: { place: 0, score: 100, mentions: 4 },
        worst: { place: 1, score: -100, mentions: 3 },
        gap: 200,
      },
    ]);
    const widget = placesComparedWidget(pc)!;
    expect(widget.series).toEqual(["p0", "p1", "p2"]);
    expect(widget.rows).toContainEqual({ category: "food", p0: 100, p1: -100, p2: 100 });
    // A place without a mention of a category has no bar there.
    expect(widget.rows).toContainEqual({ category: "price", p2: -100 });
  });

  it("is bounded to the places with most reviews; one place gives an empty widget; no place, none", () => {
    const keys = Array.from({ length: MAX_COMPARED_PLACES + 2 }, (_, i) => `p${i}`);
    const rows = keys.flatMap((k, i) =>
      Array.from({ length: i + 1 }, (_, j) => row(`${k}-${j}`, k, { mentioned: ["service"], neutral: ["service"] })),
    );
    const pc = comparePlaces(
      rows,
      keys.map((k) => ({ place_key: k, origin: ORIGIN, name: null, reviews: 0 })),
    )!;
    expect(pc.places).toHaveLength(MAX_COMPARED_PLACES);
    expect(pc.places_total).toBe(keys.length);
    expect(pc.places[0]!.place_key).toBe(keys[keys.length - 1]);
    const one = comparePlaces(rows, [{ place_key: "p3", origin: ORIGIN, name: "Solo", reviews: 4 }])!;
    expect(placesComparedWidget(one)).toMatchObject({
      rows: [],
      categories: [],
      places: [{ name: "Solo", series: "p0" }],
    });
    expect(comparePlaces(rows, [])).toBeNull();
    expect(placesComparedWidget(undefined)).toBeNull();
  });
});
