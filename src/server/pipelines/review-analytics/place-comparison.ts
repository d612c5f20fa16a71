import type { ReviewLabel, RunPlace } from "../types";
import { CATEGORIES, type Category } from "./taxonomy";

// Comparing places (docs/pipelines.md, "Comparing places"): per place and category, the category's
// mentions and its score, counted over the run's label rows exactly as aggregate() counts the
// categories of the dashboard (one mention per review and category, by the polarity of its first
// mention), so each figure is the evidence filter { place, category } of the report.

/** Places a run compares at most (the ones with most reviews); categories compared at most. */
export const MAX_COMPARED_PLACES = 6;
export const MAX_COMPARED_CATEGORIES = CATEGORIES.length;
/** Mentions a place needs in a category to lead it or to count in its gap (fewer: shown, not ranked). */
export const MIN_RANKED_MENTIONS = 3;

/** A place of the comparison: its reviews kept by the run and their average rating. */
export interface ComparedPlace {
  place_key: string;
  origin: string;
  name: string | null;
  /** Reviews of the place the run kept (after duplicates and empty ones were dropped). */
  reviews: number;
  /** Mean star rating of its reviews with a 1..5 rating (two decimals), null without any. */
  average_rating: number | null;
}

/** One category at one place: mentions, positive and negative mentions, their shares and the score. */
export interface PlaceCategoryCell {
  mentions: number;
  positive: number;
  negative: number;
  /** Shares of the mentions, in percent with one decimal (CategoryStat's positive_pct, negative_pct). */
  positive_pct: number;
  negative_pct: number;
  /**
   * Net score: the share of positive mentions minus the share of negative ones, in whole points from
   * -100 to 100 (the categories widget's positive and negative bars as one number); null without mentions.
   */
  score: number | null;
}

/** The comparison stored with the aggregates: the places (biggest first) and, per category, one cell per place in that order. */
export interface PlaceComparison {
  places: ComparedPlace[];
  /** Places the run read (more than `places` when it read more than MAX_COMPARED_PLACES). */
  places_total: number;
  /** Categories with a mention at any compared place, the most mentioned first. */
  categories: { category: Category; mentions: number; cells: PlaceCategoryCell[] }[];
}

const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);
const placeId = (origin: string | null, key: string | null) => `${origin ?? ""} ${key ?? ""}`;

/** The score of a cell: positive minus negative share of its mentions, in whole points; null without mentions. */
export function netScore(positive: number, negative: number, mentions: number): number | null {
  return mentions ? Math.round(((positive - negative) / mentions) * 100) : null;
}

/**
 * Compares the places of a run from its label rows: the places with most kept reviews (at most
 * MAX_COMPARED_PLACES), each with its reviews and average rating, and per category its mentions and
 * score at each place. Null when the run read no place (generated reviews). A run over one place
 * gets a comparison of one place, which the widget and the report show as "needs two places".
 */
export function comparePlaces(rows: readonly ReviewLabel[], places: readonly RunPlace[]): PlaceComparison | null {
  if (places.length === 0) return null;
  interface Tally {
    reviews: number;
    rated: number;
    ratingSum: number;
    cats: Map<Category, { mentions: number; positive: number; negative: number }>;
  }
  const tallies = new Map<string, Tally>(
    places.map((p) => [placeId(p.origin, p.place_key), { reviews: 0, rated: 0, ratingSum: 0, cats: new Map() }]),
  );
  for (const row of rows) {
    const t = tallies.get(placeId(row.origin, row.place_key));
    if (!t || !row.kept) continue;
    t.reviews++;
    if (row.rating !== null && row.rating >= 1 && row.rating <= 5) {
      t.rated++;
      t.ratingSum += row.rating;
    }
    for (const c of row.mentioned) {
      const category = c as Category;
      const cell = t.cats.get(category) ?? { mentions: 0, positive: 0, negative: 0 };
      cell.mentions++;
      if (row.positive.includes(c)) cell.positive++;
      if (row.negative.includes(c)) cell.negative++;
      t.cats.set(category, cell);
    }
  }
  const compared = places
    .map((p) => ({ place: p, tally: tallies.get(placeId(p.origin, p.place_key)) as Tally }))
    .sort((a, b) => b.tally.reviews - a.tally.reviews || a.place.place_key.localeCompare(b.place.place_key))
    .slice(0, MAX_COMPARED_PLACES);
  const categories = CATEGORIES.map((category) => {
    const cells = compared.map(({ tally }): PlaceCategoryCell => {
      const c = tally.cats.get(category) ?? { mentions: 0, positive: 0, negative: 0 };
      return {
        ...c,
        positive_pct: pct(c.positive, c.mentions),
        negative_pct: pct(c.negative, c.mentions),
        score: netScore(c.positive, c.negative, c.mentions),
      };
    });
    return { category, mentions: cells.reduce((n, c) => n + c.mentions, 0), cells };
  })
    .filter((c) => c.mentions > 0)
    .sort((a, b) => b.mentions - a.mentions || CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category))
    .slice(0, MAX_COMPARED_CATEGORIES);
  return {
    places: compared.map(({ place, tally }) => ({
      place_key: place.place_key,
      origin: place.origin,
      name: place.name,
      reviews: tally.reviews,
      average_rating: tally.rated ? Math.round((tally.ratingSum / tally.rated) * 100) / 100 : null,
    })),
    places_total: places.length,
    categories,
  };
}

/** A category's ranking across places: the places with enough mentions, best score first (ties: more mentions, then order). */
export function ranked(cells: readonly PlaceCategoryCell[]): { place: number; score: number; mentions: number }[] {
  return cells
    .map((c, place) => ({ place, score: c.score, mentions: c.mentions }))
    .filter((c): c is { place: number; score: number; mentions: number } => c.score !== null)
    .filter((c) => c.mentions >= MIN_RANKED_MENTIONS)
    .sort((a, b) => b.score - a.score || b.mentions - a.mentions || a.place - b.place);
}

/** The largest gaps between the best and the worst ranked place of a category, biggest first (at most `limit`). */
export function biggestGaps(
  pc: PlaceComparison,
  limit = 3,
): {
  category: Category;
  best: { place: number; score: number };
  worst: { place: number; score: number };
  gap: number;
}[] {
  return pc.categories
    .map((c) => {
      const r = ranked(c.cells);
      const best = r[0];
      const worst = r[r.length - 1];
      return best && worst && r.length >= 2
        ? { category: c.category, best, worst, gap: best.score - worst.score }
        : null;
    })
    .filter((g): g is NonNullable<typeof g> => g !== null && g.gap > 0)
    .sort((a, b) => b.gap - a.gap || CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category))
    .slice(0, limit);
}

/**
 * The "Places compared" widget's data: a BarChart (category on the x axis, one series per place,
 * `p0`…`p5` in the order of `places`, its score as the bar; a place without mentions of a category
 * has no bar) with the comparison itself for the table beside it. A run over one place has one place
 * and no rows: the widget then says a comparison needs two places.
 */
export interface PlacesComparedData {
  kind: "BarChart";
  x_key: "category";
  series: string[];
  rows: Record<string, string | number>[];
  places: (ComparedPlace & { series: string })[];
  places_total: number;
  categories: PlaceComparison["categories"];
}

/** The widget data of a stored comparison (null for results written before comparisons). */
export function placesComparedWidget(pc: PlaceComparison | undefined | null): PlacesComparedData | null {
  if (!pc) return null;
  const series = pc.places.map((_, i) => `p${i}`);
  const several = pc.places.length >= 2;
  return {
    kind: "BarChart",
    x_key: "category",
    series,
    rows: several
      ? pc.categories.map((c) => ({
          category: c.category,
          ...Object.fromEntries(
            c.cells.flatMap((cell, i) => (cell.score === null ? [] : [[series[i] as string, cell.score]])),
          ),
        }))
      : [],
    places: pc.places.map((p, i) => ({ ...p, series: series[i] as string })),
    places_total: pc.places_total,
    categories: several ? pc.categories : [],
  };
}
