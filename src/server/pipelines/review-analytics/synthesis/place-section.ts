import type { EvidenceFilter } from "../evidence";
import { biggestGaps, ranked, type ComparedPlace, type PlaceComparison } from "../place-comparison";
import type { Category } from "../taxonomy";
import { untag, type Cite, type Claim } from "./citations";
import { NARRATIVE_LANGUAGES, type ReportLanguage } from "./lang";
import { COMPARE_LANGUAGES } from "./lang/compare";

// The report's "How the places compare" section: which place leads each category, and the biggest
// gaps, every figure cited with the reviews it counts (the place's label rows, of the category).

/** Where a figure of the section is: characters [start, end) of its `index`-th line are evidence `ref`. */
export interface SectionLink {
  index: number;
  start: number;
  end: number;
  ref: string;
}

/** The section in one language: its lines and where their figures are (links only with evidence). */
export interface PlacesComparedTexts {
  places_compared: string[];
  places_compared_links?: SectionLink[];
}

const placeFilter = (p: ComparedPlace): EvidenceFilter => ({
  place: { origin: p.origin, place_key: p.place_key, other: false },
});

/** The figures the section prints, each with its ref and the label rows it counts. */
const FIG = {
  reviews: (i: number, p: ComparedPlace): [string, Claim] => [
    `compare.${i}.reviews`,
    { value: p.reviews, unit: "reviews", filter: { kept: true, ...placeFilter(p) } },
  ],
  rating: (i: number, p: ComparedPlace, value: number): [string, Claim] => [
    `compare.${i}.average_rating`,
    { value, unit: "stars", filter: { rating: { min: 1, max: 5 }, ...placeFilter(p) } },
  ],
  score: (i: number, p: ComparedPlace, category: Category, value: number): [string, Claim] => [
    `compare.${i}.${category}.score`,
    { value, unit: "points", filter: { category: { name: category, polarity: "mentioned" }, ...placeFilter(p) } },
  ],
  mentions: (i: number, p: ComparedPlace, category: Category, value: number): [string, Claim] => [
    `compare.${i}.${category}.mentions`,
    { value, unit: "mentions", filter: { category: { name: category, polarity: "mentioned" }, ...placeFilter(p) } },
  ],
};

/** Whether a run's comparison has something to compare: two places or more. */
export const comparesPlaces = (pc: PlaceComparison | null | undefined): pc is PlaceComparison =>
  !!pc && pc.places.length >= 2;

/**
 * The section's lines in a language, figures written with `cite` (tagged when it records evidence):
 * the places with their reviews and rating, what a score is, per category (the most mentioned first)
 * its leader and the other places with at least MIN_RANKED_MENTIONS mentions, and the biggest gaps.
 * Empty for a run over fewer than two places.
 */
export function placesSection(pc: PlaceComparison | null | undefined, cite: Cite, language: ReportLanguage): string[] {
  if (!comparesPlaces(pc)) return [];
  const L = NARRATIVE_LANGUAGES[language];
  const C = COMPARE_LANGUAGES[language];
  const name = (i: number) => {
    const p = pc.places[i] as ComparedPlace;
    return p.name ?? p.place_key;
  };
  const c = (figure: [string, Claim]) => cite(figure[0], figure[1]);
  const lines = [
    C.intro(
      pc.places.map((p, i) => ({
        place: name(i),
        reviews: { text: c(FIG.reviews(i, p)), n: p.reviews },
        rating: p.average_rating === null ? null : { text: c(FIG.rating(i, p, p.average_rating)), n: p.average_rating },
      })),
    ),
    C.scoreNote,
  ];
  let compared = 0;
  for (const cat of pc.categories) {
    const r = ranked(cat.cells);
    if (r.length < 2) continue;
    compared++;
    const named = (x: { place: number; score: number; mentions: number }) => ({
      place: name(x.place),
      score: c(FIG.score(x.place, pc.places[x.place] as ComparedPlace, cat.category, x.score)),
      mentions: {
        text: c(FIG.mentions(x.place, pc.places[x.place] as ComparedPlace, cat.category, x.mentions)),
        n: x.mentions,
      },
    });
    const [leader, ...others] = r.map(named);
    lines.push(C.categoryLine(L.category(cat.category), leader as ReturnType<typeof named>, others));
  }
  if (!compared) return [...lines, C.tooFew];
  const gaps = biggestGaps(pc);
  if (gaps.length)
    lines.push(
      C.gaps(
        gaps.map((g) => ({
          category: L.category(g.category),
          best: {
            place: name(g.best.place),
            score: c(FIG.score(g.best.place, pc.places[g.best.place] as ComparedPlace, g.category, g.best.score)),
          },
          worst: {
            place: name(g.worst.place),
            score: c(FIG.score(g.worst.place, pc.places[g.worst.place] as ComparedPlace, g.category, g.worst.score)),
          },
        })),
      ),
    );
  return lines;
}

/** The section in a language as stored: plain lines, and with a recording `cite`, the links of their figures. */
export function placesSectionTexts(
  pc: PlaceComparison | null | undefined,
  cite: Cite,
  language: ReportLanguage,
  linked: boolean,
): PlacesComparedTexts | null {
  const tagged = placesSection(pc, cite, language);
  if (!tagged.length) return null;
  const links: SectionLink[] = [];
  const lines = tagged.map((line, index) => {
    const { text, spans } = untag(line);
    for (const s of spans) links.push({ index, ...s });
    return text;
  });
  return { places_compared: lines, ...(linked ? { places_compared_links: links } : {}) };
}
