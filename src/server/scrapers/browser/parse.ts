import { linkOnOrigin } from "../platform-origin";
import type { ScrapedReview, TDatePrecision } from "../types";

/** What the browser reads off one review card, before any interpretation (both layouts). */
export interface RawCard {
  id: string | null;
  author: string | null;
  anonymous: boolean;
  /** Accessible label or title of the rating, e.g. "4 out of 5 stars" or "Rated 4 out of 5". */
  ratingLabel: string | null;
  /** Number of filled stars, when the rating is drawn with one element per star. */
  filledStars: number | null;
  /** Machine-readable date: ISO datetime attribute or Unix seconds. */
  dateValue: string | null;
  /** Date as written on the page, e.g. "3 de marzo de 2025". */
  dateText: string | null;
  text: string | null;
  language: string | null;
  ownerReply: string | null;
  /** The reply's machine-readable date (ISO or Unix seconds). */
  replyDateValue: string | null;
  /** Text or attribute holding the helpful votes ("5 found this helpful", "Useful (5)"). */
  helpfulText: string | null;
  /** Photo links as written (resolved on the platform's origin). */
  photos: string[];
  reviewerHref: string | null;
  /** Text holding the reviewer's review count ("12 reviews"). */
  reviewerCountText: string | null;
  /** The edit's machine-readable date. */
  editedValue: string | null;
  /** When the shown text is the platform's translation: the original text and its language. */
  originalText: string | null;
  originalLanguage: string | null;
}

/** 1 to 5 from "4 out of 5 stars", "Rated 4 out of 5", "4/5", "★★★★☆" or a star count; null when none fits. */
export function parseRating(label: string | null, filledStars: number | null = null): number | null {
  if (label) {
    const m = /(\d+(?:[.,]\d+)?)\s*(?:out of|of|\/|von|de)\s*5/i.exec(label);
    if (m?.[1]) return clampRating(Number(m[1].replace(",", ".")));
    const stars = label.match(/★/g)?.length;
    if (stars) return clampRating(stars);
  }
  return filledStars === null ? null : clampRating(filledStars);
}

function clampRating(n: number): number | null {
  return Number.isFinite(n) && n >= 1 && n <= 5 ? n : null;
}

const MONTHS: Record<string, number> = {};
[
  [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
  ],
  [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
  ],
  [
    "januar",
    "februar",
    "märz",
    "april",
    "mai",
    "juni",
    "juli",
    "august",
    "september",
    "oktober",
    "november",
    "dezember",
  ],
].forEach((names) => names.forEach((name, i) => (MONTHS[name] = i)));

/**
 * A date from an ISO string or Unix seconds, else from written text in English, Spanish or German
 * ("3 March 2025", "3 de marzo de 2025", "3. März 2025"); null when neither reads.
 */
export function parseReviewDate(value: string | null, text: string | null = null): Date | null {
  if (value) {
    const trimmed = value.trim();
    const d = /^\d{9,11}$/.test(trimmed) ? new Date(Number(trimmed) * 1000) : new Date(trimmed);
    if (!Number.isNaN(d.getTime())) return d;
  }
  if (text) {
    const m = /(\d{1,2})\.?\s+(?:de\s+)?([\p{L}]+)\s+(?:de\s+)?(\d{4})/u.exec(text.trim());
    const month = m?.[2] ? MONTHS[m[2].toLowerCase()] : undefined;
    if (m && month !== undefined) return new Date(Date.UTC(Number(m[3]), month, Number(m[1])));
  }
  return null;
}

function clean(text: string | null): string | null {
  const t = text?.replace(/\s+/g, " ").trim();
  return t ? t : null;
}

const RELATIVE = /(\d+|an?|one)\s+(day|week|month|year)s?\s+ago/i;

/**
 * A date written relative to `now` ("3 days ago", "2 weeks ago", "a month ago", "1 year ago") and its
 * precision: day for days and weeks, month, year; null when the text is not one.
 */
export function parseRelativeDate(text: string | null, now: Date): { date: Date; precision: TDatePrecision } | null {
  const m = RELATIVE.exec(text ?? "");
  if (!m) return null;
  const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : 1;
  const unit = m[2]!.toLowerCase();
  const d = new Date(now);
  if (unit === "day") d.setUTCDate(d.getUTCDate() - n);
  else if (unit === "week") d.setUTCDate(d.getUTCDate() - 7 * n);
  else if (unit === "month") d.setUTCMonth(d.getUTCMonth() - n);
  else d.setUTCFullYear(d.getUTCFullYear() - n);
  return { date: d, precision: unit === "year" ? "year" : unit === "month" ? "month" : "day" };
}

const firstNumber = (text: string | null): number | null => {
  const m = /(\d+)/.exec(text ?? "");
  return m ? Number(m[1]) : null;
};

/**
 * A scraped review from a raw card; null when the card has no id (it cannot be deduplicated). `text`
 * is the original when the card shows the platform's translation; links are resolved on `origin`.
 */
export function toScrapedReview(raw: RawCard, origin?: string, now = new Date()): ScrapedReview | null {
  const id = clean(raw.id);
  if (!id) return null;
  const exact = parseReviewDate(raw.dateValue, null);
  const written = exact ? null : parseReviewDate(null, raw.dateText);
  const relative = exact || written ? null : parseRelativeDate(raw.dateText, now);
  const translated = clean(raw.originalText) !== null;
  return {
    externalId: id,
    author: raw.anonymous ? null : clean(raw.author),
    rating: parseRating(raw.ratingLabel, raw.filledStars),
    text: translated ? clean(raw.originalText) : clean(raw.text),
    language:
      clean(translated ? raw.originalLanguage : raw.language)
        ?.toLowerCase()
        .slice(0, 2) ?? null,
    publishedAt: exact ?? written ?? relative?.date ?? null,
    ownerReply: clean(raw.ownerReply),
    datePrecision: exact ? "exact" : written ? "day" : (relative?.precision ?? "exact"),
    ownerReplyAt: parseReviewDate(raw.replyDateValue, null),
    helpful: firstNumber(raw.helpfulText),
    photos: raw.photos.map((p) => linkOnOrigin(p, origin)).filter((u): u is string => u !== null),
    reviewerUrl: linkOnOrigin(raw.reviewerHref, origin),
    reviewerReviewCount: firstNumber(raw.reviewerCountText),
    editedAt: parseReviewDate(raw.editedValue, null),
    translatedText: translated ? clean(raw.text) : null,
    translatedLanguage: translated ? (clean(raw.language)?.toLowerCase().slice(0, 2) ?? null) : null,
  };
}
