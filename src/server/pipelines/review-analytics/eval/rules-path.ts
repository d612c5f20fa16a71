import { classify } from "../classify";
import type { RawReview } from "../model";
import { normalize } from "../normalize";
import type { Labelled, Predicted } from "./score";

/**
 * The rule-based path as the pipeline runs it: the normalize and classify stages over the labelled
 * texts. With `hint`, the label's language is passed as the platform's hint (as collected reviews
 * carry one); without, the detector decides alone.
 */
export function predictWithRules(items: readonly Labelled[], opts: { hint: boolean }): Map<string, Predicted> {
  const raw: RawReview[] = items.map((r) => ({ id: r.id, author: null, rating: r.rating, text: r.text, language: opts.hint ? r.language : null, publishedAt: null }));
  const classified = classify(normalize(raw).output).output;
  return new Map(
    classified.map((r) => [
      r.id,
      { language: r.language, sentiment: r.label, categories: [...new Set(r.mentions.map((m) => m.category))], critical: r.critical } satisfies Predicted,
    ]),
  );
}

/** The baseline: sentiment from the stars alone (4-5 positive, 1-2 negative, 3 neutral), nothing else. */
export function predictFromStars(items: readonly Labelled[]): Map<string, Predicted> {
  return new Map(items.map((r) => [r.id, { language: "unknown", sentiment: r.rating >= 4 ? "positive" : r.rating <= 2 ? "negative" : "neutral", categories: [], critical: false } satisfies Predicted]));
}
