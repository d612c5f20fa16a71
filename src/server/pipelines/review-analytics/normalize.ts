import { detectLanguage } from "./language";
import type { NormalizedReview, RawReview } from "./model";
import { cleanText, sentences, tokenize } from "./text";
import type { StageResult } from "../types";
import { warning } from "../stage-warnings";

/**
 * Stage 1: cleans each text, drops duplicates (same id, or same rating and same text once case,
 * spacing and punctuation are ignored; the first one is kept) and reviews with neither text nor a
 * valid rating, and detects the language.
 */
export function normalize(raw: readonly RawReview[]): StageResult<NormalizedReview[]> {
  const seenIds = new Set<string>();
  const seenTexts = new Set<string>();
  const out: NormalizedReview[] = [];
  let duplicates = 0;
  let empty = 0;
  let badRatings = 0;
  let unknownLanguage = 0;
  for (const r of raw) {
    if (seenIds.has(r.id)) {
      duplicates++;
      continue;
    }
    seenIds.add(r.id);
    const text = cleanText(r.text);
    let rating = r.rating;
    if (rating !== null && !(Number.isInteger(rating) && rating >= 1 && rating <= 5)) {
      badRatings++;
      rating = null;
    }
    if (!text && rating === null) {
      empty++;
      continue;
    }
    const parts = text ? sentences(text).map((s) => ({ text: s, tokens: tokenize(s) })) : [];
    const tokens = parts.length === 1 ? parts[0]!.tokens : parts.flatMap((p) => p.tokens);
    if (text) {
      // Same rating and same words: case, spacing and punctuation do not make a review new.
      const key = `${rating ?? "-"}|${tokens.join(" ")}`;
      if (seenTexts.has(key)) {
        duplicates++;
        continue;
      }
      seenTexts.add(key);
    }
    const language = text ? detectLanguage(text, r.language, tokens) : "unknown";
    if (text && language === "unknown") unknownLanguage++;
    out.push({
      id: r.id,
      author: r.author,
      rating,
      text,
      language,
      publishedAt: r.publishedAt,
      tokens,
      sentences: parts,
    });
  }
  const warnings: string[] = [];
  if (duplicates) warnings.push(warning("duplicates", duplicates));
  if (empty) warnings.push(warning("empty", empty));
  if (badRatings) warnings.push(warning("badRatings", badRatings));
  if (unknownLanguage) warnings.push(warning("unknownLanguage", unknownLanguage));
  return { output: out, itemsOut: out.length, warnings };
}
