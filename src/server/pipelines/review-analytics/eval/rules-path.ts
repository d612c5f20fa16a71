import { classify, classifyWithModel } from "../classify";
import type { ClassifiedReview } from "../model";
import type { ModelClassifier } from "../model-classifier";
import type { RawReview } from "../model";
import { normalize } from "../normalize";
import type { Labelled, Predicted } from "./score";

/**
 * The rule-based path as the pipeline runs it: the normalize and classify stages over the labelled
 * texts. With `hint`, the label's language is passed as the platform's hint (as collected reviews
 * carry one); without, the detector decides alone. `learned: false` labels by the rules alone,
 * without the learned label model (the figures before it).
 */
export function predictWithRules(
  items: readonly Labelled[],
  opts: { hint: boolean; learned?: boolean },
): Map<string, Predicted> {
  return predictions(
    classify(normalize(rawOf(items, opts)).output, opts.learned === false ? { model: null } : {}).output,
  );
}

/** The model path: the classify stage with a language-model classifier (PIPELINE_LLM_* settings). */
export async function predictWithModel(
  items: readonly Labelled[],
  opts: { hint: boolean },
  model: ModelClassifier,
): Promise<Map<string, Predicted>> {
  return predictions((await classifyWithModel(normalize(rawOf(items, opts)).output, model)).output);
}

function rawOf(items: readonly Labelled[], opts: { hint: boolean }): RawReview[] {
  return items.map((r) => ({
    id: r.id,
    author: null,
    rating: r.rating,
    text: r.text,
    language: opts.hint ? r.language : null,
    publishedAt: null,
  }));
}

function predictions(classified: readonly ClassifiedReview[]): Map<string, Predicted> {
  return new Map(
    classified.map((r) => [
      r.id,
      {
        language: r.language,
        sentiment: r.label,
        categories: r.modelCategories ?? [...new Set(r.mentions.map((m) => m.category))],
        critical: r.critical,
      } satisfies Predicted,
    ]),
  );
}

/** The baseline: sentiment from the stars alone (4-5 positive, 1-2 negative, 3 neutral), nothing else. */
export function predictFromStars(items: readonly Labelled[]): Map<string, Predicted> {
  return new Map(
    items.map((r) => [
      r.id,
      {
        language: "unknown",
        sentiment: r.rating >= 4 ? "positive" : r.rating <= 2 ? "negative" : "neutral",
        categories: [],
        critical: false,
      } satisfies Predicted,
    ]),
  );
}
