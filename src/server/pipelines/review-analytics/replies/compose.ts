import { CATEGORIES, type Category } from "../taxonomy";
import { isReplyLanguage, REPLY_LANGUAGES, type ReplyLanguageCode } from "./lang";

/** Why a review needs an answer (docs/pipelines.md, "Reply drafts"). */
export const REPLY_REASONS = ["low_rating", "negative", "critical"] as const;
export type ReplyReason = (typeof REPLY_REASONS)[number];

/** Stars at or below which a review needs an answer. */
export const LOW_RATING = 3;

/** What a run knows about one review that a reply is built from. */
export interface ReplyFacts {
  author: string | null;
  rating: number | null;
  /** The review's language (detected, else the platform's); null or "unknown" when neither knows it. */
  language: string | null;
  critical: boolean;
  /** Categories the review complained about and praised (category ids; others are ignored). */
  negative: readonly string[];
  positive: readonly string[];
}

/**
 * Why a review needs an answer, empty when it needs none: a rating of 3 stars or less, any negative
 * category mention or a health-and-safety case, and only while the platform shows no owner reply
 * (a review already answered there needs no draft).
 */
export function replyReasons(f: Omit<ReplyFacts, "author" | "language"> & { ownerReplied: boolean }): ReplyReason[] {
  if (f.ownerReplied) return [];
  const reasons: ReplyReason[] = [];
  if (f.rating !== null && f.rating <= LOW_RATING) reasons.push("low_rating");
  if (f.negative.some(isCategory)) reasons.push("negative");
  if (f.critical) reasons.push("critical");
  return reasons;
}

const isCategory = (c: string): c is Category => (CATEGORIES as readonly string[]).includes(c);
/** The categories in the taxonomy's order, each once: the same review always names them the same way. */
const ordered = (list: readonly string[]) => CATEGORIES.filter((c) => list.includes(c));

/** Names that stand for nobody ("Anonymous", "A Google user") are not used in the greeting. */
const NO_NAME = /^(anonym(e|ous)?|anónimo|anonimo|a google user|guest|gast|invitado|usuario|user)$/i;

/** The reviewer's name as a greeting may use it: trimmed, one line, at most 60 characters; null for none. */
export function greetingName(author: string | null): string | null {
  const name = (author ?? "")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
  if (!name || NO_NAME.test(name)) return null;
  return name.length > 60 ? `${name.slice(0, 59).trimEnd()}…` : name;
}

/**
 * The review's language for its reply: the detector knows only en, es and de, so a platform's language
 * outside them ("fr") wins (and the reply falls back to English); else the detected one, else the platform's.
 */
export function replyLanguage(detected: string | null, platform: string | null): string | null {
  const hint = platform?.trim().toLowerCase().slice(0, 2) || null;
  if (hint && !isReplyLanguage(hint)) return hint;
  return detected && detected !== "unknown" ? detected : hint;
}

/** A written draft: its text, the language it is in, and the review's language when it fell back to English. */
export interface ComposedReply {
  text: string;
  language: ReplyLanguageCode;
  fallbackFrom: string | null;
}

/**
 * The deterministic draft of a reply (same facts, same text): a greeting by the reviewer's name, a
 * thanks, the health-and-safety sentence for a critical case, an apology naming the categories
 * complained about (or the low rating), a thanks for what was praised (left out in a health-and-safety
 * case, where praise would read as making light of it), a closing and a signature. Written in the
 * review's language when it is en, es or de, else in English with `fallbackFrom` set.
 */
export function composeReply(f: ReplyFacts): ComposedReply {
  const code = isReplyLanguage(f.language) ? f.language : "en";
  const lang = REPLY_LANGUAGES[code];
  const named = (list: readonly string[], use: "complained" | "praised") => {
    const items = ordered(list).map((c) => lang.category(c));
    const joined = lang.list(items);
    return { items, text: lang.frame ? lang.frame(items, joined, use) : joined };
  };
  const negative = named(f.negative, "complained");
  // A category is praised only when it is not also complained about.
  const positive = named(
    f.positive.filter((c) => !f.negative.includes(c)),
    "praised",
  );
  const body: string[] = [lang.thanks(f.critical)];
  if (f.critical) body.push(lang.critical);
  if (negative.items.length) body.push(lang.complained(negative.text));
  else if (f.rating !== null && f.rating <= LOW_RATING) body.push(lang.lowRating);
  if (positive.items.length && !f.critical) body.push(lang.praised(positive.text));
  body.push(lang.closing(f.critical));
  const text = [lang.greeting(greetingName(f.author)), body.join(" "), lang.signature].join("\n\n");
  return { text, language: code, fallbackFrom: code === f.language ? null : (f.language ?? "unknown") };
}
