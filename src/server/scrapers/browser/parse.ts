import type { ScrapedReview } from "../types";

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
  ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"],
  ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
  ["januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "dezember"],
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

/** A scraped review from a raw card; null when the card has no id (it cannot be deduplicated). */
export function toScrapedReview(raw: RawCard): ScrapedReview | null {
  const id = clean(raw.id);
  if (!id) return null;
  return {
    externalId: id,
    author: raw.anonymous ? null : clean(raw.author),
    rating: parseRating(raw.ratingLabel, raw.filledStars),
    text: clean(raw.text),
    language: clean(raw.language)?.toLowerCase().slice(0, 2) ?? null,
    publishedAt: parseReviewDate(raw.dateValue, raw.dateText),
    ownerReply: clean(raw.ownerReply),
  };
}
