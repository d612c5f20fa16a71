import { createRng, hashString, type Rng } from "./prng";
import { ASPECTS, PHRASES, type TAspect, type TLanguage } from "./phrases";

export type TLayout = 1 | 2;

export interface DemoPlace {
  id: string;
  name: string;
  category: string;
  city: string;
  /** The layout the place page uses unless a setting overrides it. */
  layout: TLayout;
  reviewCount: number;
  /** Mean rating over all reviews, one decimal. */
  rating: number;
  /** Street address as the place page shows it. */
  address: string;
  /** How many reviews have 1, 2, 3, 4 and 5 stars (index 0 is 1 star). */
  histogram: [number, number, number, number, number];
  /** Built-in misbehaviour of the special places (see settings.ts). */
  special?: "blocked" | "slow" | "flaky";
}

export interface DemoReview {
  id: string;
  author: string | null;
  rating: number;
  text: string | null;
  language: TLanguage;
  publishedAt: Date;
  ownerReply: string | null;
  /** "Helpful" votes; part of the relevance order. */
  helpful: number;
  /** The topics the text talks about, with their polarity (ground truth for the analysis tests). */
  aspects: { aspect: TAspect; polarity: "positive" | "negative" }[];
  /** When the owner replied (with `ownerReply`). */
  ownerReplyAt: Date | null;
  /** Photo paths on the platform (`/photos/<review id>-<n>.jpg`). */
  photos: string[];
  /** The reviewer's profile path and how many reviews they wrote; null for anonymous reviews. */
  reviewer: { path: string; reviewCount: number } | null;
  /** When the review was last edited, for the few that were. */
  editedAt: Date | null;
  /** The platform's translation into the city's main language, for reviews written in another one. */
  translation: { language: TLanguage; text: string } | null;
}

export interface DatasetOptions {
  seed: number;
  /** Number of ordinary places (p-0001 ...); the three special places come on top. */
  places: number;
  /** The newest possible review date; reviews spread over the two years before it. */
  anchor: Date;
}

const CITIES: { city: string; mix: Record<TLanguage, number> }[] = [
  { city: "London", mix: { en: 85, es: 8, de: 7 } },
  { city: "Madrid", mix: { en: 20, es: 70, de: 10 } },
  { city: "Berlin", mix: { en: 20, es: 10, de: 70 } },
  { city: "Barcelona", mix: { en: 30, es: 60, de: 10 } },
  { city: "Munich", mix: { en: 25, es: 5, de: 70 } },
  { city: "New York", mix: { en: 80, es: 18, de: 2 } },
  { city: "Seville", mix: { en: 25, es: 70, de: 5 } },
  { city: "Vienna", mix: { en: 25, es: 5, de: 70 } },
];
const CATEGORIES = ["Restaurant", "Café", "Tapas bar", "Bistro", "Pizzeria", "Brewery", "Bakery", "Steakhouse"];
const NAME_A = ["Golden", "Blue", "Old", "Little", "Green", "Silver", "Happy", "Hidden", "Royal", "Red"];
const NAME_B = ["Spoon", "Olive", "Lantern", "Harbour", "Oak", "Fig", "Anchor", "Garden", "Kettle", "Fox"];
const STREETS = [
  "High Street",
  "Calle Mayor",
  "Hauptstraße",
  "Market Square",
  "Gran Vía",
  "Bahnhofstraße",
  "Rue de la Paix",
  "Main Street",
];
const SPECIALS = ["blocked", "slow", "flaky"] as const;
const DAY_MS = 86_400_000;

/** Generated places and their reviews: a pure function of the options (reviews are made on first use). */
export interface Dataset {
  options: DatasetOptions;
  places: DemoPlace[];
  place(id: string): DemoPlace | undefined;
  reviews(placeId: string): DemoReview[];
  /**
   * Activity on a place, as on a live platform: `add` new reviews (newer than every other) and `edit`
   * the texts of the newest reviews that were there before (marked edited now). Null for an unknown place.
   */
  activity(
    placeId: string,
    change: { add: number; edit: number },
    now: Date,
  ): { added: string[]; edited: string[] } | null;
  /** Undoes every activity (the generated dataset again). */
  restore(): void;
}

/** At most this many reviews a place may gain through activity (memory stays bounded). */
export const ACTIVITY_MAX_ADDED = 10_000;
const NEUTRAL_WEIGHTS = { "5": 30, "4": 25, "3": 15, "2": 12, "1": 15 };

export function createDataset(options: DatasetOptions): Dataset {
  const places: DemoPlace[] = [];
  for (let i = 0; i < options.places; i++) places.push(makePlace(options, `p-${String(i + 1).padStart(4, "0")}`, i));
  SPECIALS.forEach((special, i) => places.push({ ...makePlace(options, `p-${special}`, i), special }));
  const byId = new Map(places.map((p) => [p.id, p]));
  const cache = new Map<string, DemoReview[]>();
  for (const place of places) {
    const reviews = makeReviews(options, place);
    cache.set(place.id, reviews);
    place.rating = Math.round((reviews.reduce((s, r) => s + r.rating, 0) / Math.max(1, reviews.length)) * 10) / 10;
    for (const r of reviews) place.histogram[r.rating - 1]! += 1;
  }
  // What activity changed: the place's generated facts and reviews, to restore.
  const original = new Map<string, { place: DemoPlace; reviews: DemoReview[]; added: number }>();
  const restats = (place: DemoPlace, reviews: DemoReview[]) => {
    place.reviewCount = reviews.length;
    place.histogram = [0, 0, 0, 0, 0];
    for (const r of reviews) place.histogram[r.rating - 1]! += 1;
    place.rating = Math.round((reviews.reduce((sum, r) => sum + r.rating, 0) / Math.max(1, reviews.length)) * 10) / 10;
  };
  return {
    options,
    places,
    place: (id) => byId.get(id),
    reviews: (id) => cache.get(id) ?? [],
    activity(id, change, now) {
      const place = byId.get(id);
      const reviews = cache.get(id);
      if (!place || !reviews) return null;
      const before = original.get(id) ?? { place: structuredClone(place), reviews: reviews.slice(), added: 0 };
      original.set(id, before);
      const add = Math.min(change.add, ACTIVITY_MAX_ADDED - before.added);
      const edited = [...reviews]
        .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
        .slice(0, change.edit);
      for (const r of edited) {
        const at = reviews.indexOf(r);
        reviews[at] = {
          ...r,
          text: `${r.text ?? ""} ${EDIT_NOTE}`.trim(),
          editedAt: new Date(Math.floor(now.getTime() / 1000) * 1000),
        };
      }
      const newest = Math.max(now.getTime(), ...reviews.map((r) => r.publishedAt.getTime() + 1000));
      const added: DemoReview[] = [];
      for (let k = 0; k < add; k++) {
        const n = before.added + k + 1;
        const reviewId = `${id}-n${String(n).padStart(4, "0")}`;
        added.push(
          drawReview(
            options,
            place,
            createRng(options.seed, "activity", reviewId),
            NEUTRAL_WEIGHTS,
            reviewId,
            new Date(Math.floor(newest / 1000) * 1000 + k * 1000),
          ),
        );
      }
      before.added += add;
      reviews.push(...added);
      restats(place, reviews);
      return { added: added.map((r) => r.id), edited: edited.map((r) => r.id) };
    },
    restore() {
      for (const [id, before] of original) {
        const place = byId.get(id);
        if (place) Object.assign(place, structuredClone(before.place));
        cache.set(id, before.reviews);
      }
      original.clear();
    },
  };
}

/** What an edit appends to a review's text. */
const EDIT_NOTE = "(Edit: came back a second time, same impression.)";

function makePlace(options: DatasetOptions, id: string, index: number): DemoPlace {
  const rng = createRng(options.seed, "place", id);
  // Every third place (p-0002, p-0005, ...) uses layout 2, so both layouts are always present.
  const layout: TLayout = index % 3 === 1 ? 2 : 1;
  // Every eighth place is small; p-0001 and p-0002 always have plenty (tests and docs rely on them).
  const small = index % 8 === 7;
  return {
    id,
    name: `The ${rng.pick(NAME_A)} ${rng.pick(NAME_B)}`,
    category: rng.pick(CATEGORIES),
    city: (CITIES[index % CITIES.length] ?? CITIES[0]!).city,
    layout,
    reviewCount: small ? rng.int(3, 30) : rng.int(index < 2 ? 180 : 120, 400),
    rating: 0,
    // Drawn last, so the facts drawn before keep their values for a given seed.
    address: `${rng.pick(STREETS)} ${rng.int(1, 180)}, ${(CITIES[index % CITIES.length] ?? CITIES[0]!).city}`,
    histogram: [0, 0, 0, 0, 0],
  };
}

function makeReviews(options: DatasetOptions, place: DemoPlace): DemoReview[] {
  const rng = createRng(options.seed, "reviews", place.id);
  // A place-level quality in [-1, 1] tilts the rating distribution.
  const quality = rng.next() * 2 - 1;
  const weights = {
    "5": 30 + 20 * quality,
    "4": 25 + 5 * quality,
    "3": 15,
    "2": 12 - 6 * quality,
    "1": 15 - 12 * quality,
  };
  const offsets = Array.from({ length: place.reviewCount }, () => rng.next() * 730 * DAY_MS).sort((a, b) => b - a);
  return offsets.map((offset, i) =>
    // Whole seconds, so every layout can show the exact instant.
    drawReview(
      options,
      place,
      rng,
      weights,
      `${place.id}-r${String(i + 1).padStart(4, "0")}`,
      new Date(Math.floor((options.anchor.getTime() - offset) / 1000) * 1000),
    ),
  );
}

/** One review of a place, drawn from `rng` (the same draws in the same order for a given id and date). */
function drawReview(
  options: DatasetOptions,
  place: DemoPlace,
  rng: Rng,
  weights: Record<string, number>,
  id: string,
  publishedAt: Date,
): DemoReview {
  const mix = (CITIES.find((c) => c.city === place.city) ?? CITIES[0]!).mix;
  const rating = Number(rng.weighted(weights));
  const language = rng.weighted(mix);
  const bank = PHRASES[language];
  const first = rng.pick(bank.firstNames);
  const author = rng.chance(0.04) ? null : `${first} ${rng.pick(bank.lastNames).charAt(0)}.`;
  const written = rng.chance(0.93) ? writeText(rng, language, rating) : { text: null, aspects: [] };
  const replyChance = rating <= 2 ? 0.45 : rating === 3 ? 0.2 : 0.15;
  const ownerReply = rng.chance(replyChance)
    ? addressTo(rng.pick(rating >= 4 ? bank.replies.thanks : bank.replies.apology), author ? first : null)
    : null;
  return {
    id,
    author,
    rating,
    text: written.text,
    language,
    publishedAt,
    ownerReply,
    helpful: Math.floor(rng.next() ** 3 * 60),
    aspects: written.aspects,
    ...extrasOf(options, place, id, { author, rating, language, text: written.text, publishedAt, ownerReply }),
  };
}

/**
 * The fields a platform shows beside a review (reply date, photos, the reviewer, an edit, a
 * translation), drawn from a stream of their own so that every earlier field keeps its value.
 */
function extrasOf(
  options: DatasetOptions,
  place: DemoPlace,
  id: string,
  r: {
    author: string | null;
    rating: number;
    language: TLanguage;
    text: string | null;
    publishedAt: Date;
    ownerReply: string | null;
  },
): Pick<DemoReview, "ownerReplyAt" | "photos" | "reviewer" | "editedAt" | "translation"> {
  const rng = createRng(options.seed, "extras", id);
  const later = (maxDays: number) =>
    new Date(Math.min(options.anchor.getTime(), r.publishedAt.getTime() + rng.int(1, maxDays) * DAY_MS));
  const main = (Object.entries((CITIES.find((c) => c.city === place.city) ?? CITIES[0]!).mix).sort(
    (a, b) => b[1] - a[1],
  )[0]?.[0] ?? "en") as TLanguage;
  return {
    ownerReplyAt: r.ownerReply === null ? null : later(20),
    photos: rng.chance(0.15) ? Array.from({ length: rng.int(1, 3) }, (_, n) => `/photos/${id}-${n + 1}.jpg`) : [],
    reviewer:
      r.author === null
        ? null
        : {
            path: `/users/u${(hashString(`${options.seed}:${r.author}`) % 100_000).toString().padStart(5, "0")}`,
            reviewCount: rng.int(1, 250),
          },
    editedAt: rng.chance(0.08) ? later(60) : null,
    translation:
      r.text !== null && r.language !== main
        ? { language: main, text: writeText(rng, main, r.rating).text ?? "" }
        : null,
  };
}

/** A review text whose sentences agree with the rating (3 stars mixes praise and complaints). */
function writeText(rng: Rng, language: TLanguage, rating: number): Pick<DemoReview, "text" | "aspects"> {
  const bank = PHRASES[language];
  const count = rng.int(1, 3);
  const chosen: TAspect[] = [];
  while (chosen.length < count) {
    const aspect = rng.pick(ASPECTS);
    if (!chosen.includes(aspect)) chosen.push(aspect);
  }
  const firstPositive = rating === 3 ? rng.chance(0.5) : rating >= 4;
  const aspects = chosen.map((aspect, i) => {
    let positive = firstPositive;
    // 4 and 2 stars sometimes carry one dissenting remark; 3 stars alternate praise and complaint.
    if ((rating === 4 || rating === 2) && i > 0 && rng.chance(0.3)) positive = !positive;
    if (rating === 3 && i % 2 === 1) positive = !positive;
    return { aspect, polarity: positive ? ("positive" as const) : ("negative" as const) };
  });
  const tone = rating >= 4 ? "positive" : rating <= 2 ? "negative" : "mixed";
  const parts: string[] = [];
  if (rng.chance(0.6)) parts.push(rng.pick(bank.openers[tone]));
  for (const { aspect, polarity } of aspects) parts.push(rng.pick(bank.aspects[aspect][polarity]));
  if (tone !== "mixed" && rng.chance(0.4)) parts.push(rng.pick(bank.closers[tone]));
  return { text: parts.join(" "), aspects };
}

/** Puts the reviewer's first name into a reply, or drops the salutation for anonymous reviews. */
function addressTo(template: string, name: string | null): string {
  if (name) return template.replace("{name}", name);
  const text = template
    .replace(/\s*\{name\}\s*/, " ")
    .replace(/ ,/g, ",")
    .replace(/^[\s,]+/, "")
    .replace(/\s{2,}/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
