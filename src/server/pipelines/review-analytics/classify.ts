import { reviewHazards, type SentenceTokens } from "./critical";
import type { Hazard } from "./critical-types";
import type { Language } from "./language";
import type { ClassifiedReview, Mention, NormalizedReview } from "./model";
import type { ModelClassifier } from "./model-classifier";
import { compound, lukewarmVerdicts, polarityOf, scoreSentence, type Segment, type SentimentLabel } from "./sentiment";
import {
  featuresOf,
  loadModel,
  predictLabel,
  type LoadedModel,
  type SentimentEvidence,
  type SentimentModel,
} from "./sentiment-model";
import shipped from "./sentiment-model.json";
import { categoriesOf } from "./categories";
import type { Category } from "./taxonomy";
import { clauses, fold, tokenize } from "./text";
import type { StageResult } from "../types";
import { modelWarning } from "../stage-warnings";

/** Hazards of what was eaten; the others (vermin, hygiene, injury) are of the place's cleanliness and upkeep. */
const HAZARD_FOOD: ReadonlySet<Hazard> = new Set(["illness", "foreign_object", "allergy"]);

/**
 * How the text's masses and the stars make the label (docs/pipelines.md, "Sentiment"): the stars count
 * as evidence beside the words (a 5-star review adds 2.5 x RATING_WEIGHT); a review whose positive
 * and negative masses are both at least MIXED_MIN and within MIXED_RATIO of each other is mixed.
 */
export const LABEL_PARAMS = {
  LUKEWARM_STRONG: 4,
  RATING_WEIGHT: 1,
  MIXED_MIN: 2,
  MIXED_RATIO: 0.25,
  MIXED_RATIO_POLAR: 0.6,
  POSITIVE_AT: 1.5,
  NEGATIVE_AT: 1.5,
  AFTER_TURN_PREVIOUS: 0.7,
};
const STAR_EVIDENCE = [-2.5, -1.5, 0, 1.5, 2.5] as const;

/** Amounts of money: the price category even when no price word is used ("£18 for a burger"). */
const MONEY =
  /[£€$]\s?\d|\d(?:[.,]\d+)?\s?(?:€|\$|£|eur\b|euros?\b|quid\b|bucks\b|dollars?\b|pounds?\b|franken\b|chf\b|pavos\b)/i;

/** The labels a review that reports a hazard may take. */
const CRITICAL_LABELS: ReadonlySet<SentimentLabel> = new Set(["negative", "mixed"]);

let shippedModel: LoadedModel | null | undefined;
/** The learned label model shipped with the code (null while none has been trained). */
export function shippedSentimentModel(): LoadedModel | null {
  if (shippedModel === undefined)
    shippedModel = (shipped as SentimentModel).features.length ? loadModel(shipped as SentimentModel) : null;
  return shippedModel;
}

export interface ClassifyOptions {
  /** The learned label model; null labels by the rules alone. Default: the shipped one. */
  model?: LoadedModel | null;
  /** Receives what the rules measured about each review (the training script's input). */
  onEvidence?: (id: string, evidence: SentimentEvidence) => void;
}

/** Polarity of a sentence part with no sentiment word of its own: the stars' (1-2 negative, 4-5 positive). */
function ratingPolarity(rating: number | null): "positive" | "neutral" | "negative" {
  if (rating === null || rating === 3) return "neutral";
  return rating <= 2 ? "negative" : "positive";
}

/** The review's label from its positive and negative masses, the stars and whether it reports a hazard. */
export function labelReview(
  masses: { pos: number; neg: number; rawPos: number; rawNeg: number },
  rating: number | null,
  critical: boolean,
  p = LABEL_PARAMS,
  lukewarm = 0,
): { label: SentimentLabel; score: number } {
  const { pos, neg, rawPos, rawNeg } = masses;
  const stars = rating === null ? 0 : STAR_EVIDENCE[rating - 1]! * p.RATING_WEIGHT;
  const score = pos - neg + stars;
  // "Nothing special", "ni fu ni fa": an average verdict and no strong opinion elsewhere is neutral, whatever the stars.
  if (lukewarm > 0 && !critical && Math.abs(pos - neg) < p.LUKEWARM_STRONG)
    return { label: "neutral", score: pos - neg };
  // Mixed needs both sides; with 2 or 4 stars the side the stars take must be the weaker one or nearly level.
  const ratio = Math.min(rawPos, rawNeg) / Math.max(rawPos, rawNeg);
  const needed = rating === 3 || rating === null ? p.MIXED_RATIO : p.MIXED_RATIO_POLAR;
  const mixed =
    rawPos >= p.MIXED_MIN &&
    rawNeg >= p.MIXED_MIN &&
    ratio >= needed &&
    (rating === null || (rating >= 2 && rating <= 4));
  if (mixed && !critical) return { label: "mixed", score };
  if (critical) return { label: score > 4 ? "mixed" : "negative", score: Math.min(score, -1) };
  if (score >= p.POSITIVE_AT) return { label: "positive", score };
  if (score <= -p.NEGATIVE_AT) return { label: "negative", score };
  return { label: "neutral", score };
}

/** A sentence's folded tokens, clause by clause (a guard such as "no" reaches only into its own clause). */
function clauseTokens(text: string, language: Language): SentenceTokens {
  const tokens: string[] = [];
  const clause: number[] = [];
  clauses(text).forEach((c, i) => {
    for (const t of tokenize(c)) {
      tokens.push(fold(t, language));
      clause.push(i);
    }
  });
  return { tokens, clause };
}

interface Part {
  segment: Segment;
  sentence: string;
  sentenceScore: number;
  hazards: Hazard[];
  /** The sentence names an amount of money (counted once, on its first part). */
  money: boolean;
}

/**
 * Stage 2: for each review in a supported language, each sentence split into parts at commas and
 * turns ("but", "although"), scored with the language's lexicon (negation, intensity, idioms); the
 * categories each part mentions with the part's own polarity (aspect-level sentiment); the
 * health-and-safety hazards each sentence reports; and the review's label: the rules' (from its
 * positive and negative masses and its stars), re-decided by the learned label model over what the
 * rules measured and the review's words (sentiment-model.ts) unless `options.model` is null.
 */
export function classify(
  reviews: readonly NormalizedReview[],
  options: ClassifyOptions = {},
): StageResult<ClassifiedReview[]> {
  const model = options.model === undefined ? shippedSentimentModel() : options.model;
  const features = new Map<string, number>();
  const out: ClassifiedReview[] = [];
  for (const r of reviews) {
    const parts: Part[] = [];
    const hazards = new Set<Hazard>();
    let lukewarm = 0;
    let folded: SentenceTokens[] = [];
    const sentenceScores: number[] = [];
    if (r.language !== "unknown" && r.text) {
      const language: Language = r.language;
      let previous: Segment[] = [];
      folded = r.sentences.map((sentence) => clauseTokens(sentence.text, language));
      const sentenceHazards = reviewHazards(folded, language);
      for (const s of folded) lukewarm += lukewarmVerdicts(s.tokens, language);
      for (const [index, sentence] of r.sentences.entries()) {
        const { segments, opensWithTurn } = scoreSentence(
          clauses(sentence.text),
          tokenize,
          language,
          /!\s*$/.test(sentence.text),
        );
        if (opensWithTurn) {
          for (const s of previous) {
            s.pos *= LABEL_PARAMS.AFTER_TURN_PREVIOUS;
            s.neg *= LABEL_PARAMS.AFTER_TURN_PREVIOUS;
          }
        }
        previous = segments;
        const found = sentenceHazards[index]!;
        for (const h of found) hazards.add(h);
        const sentenceScore = segments.reduce((n, s) => n + s.pos - s.neg, 0);
        sentenceScores.push(sentenceScore);
        const money = MONEY.test(sentence.text);
        segments.forEach((segment, i) =>
          parts.push({ segment, sentence: sentence.text, sentenceScore, hazards: found, money: money && i === 0 }),
        );
      }
    }
    const masses = { pos: 0, neg: 0, rawPos: 0, rawNeg: 0 };
    for (const { segment } of parts) {
      masses.pos += segment.pos;
      masses.neg += segment.neg;
      masses.rawPos += segment.rawPos;
      masses.rawNeg += segment.rawNeg;
    }
    const critical = hazards.size > 0;
    const byRules =
      r.language === "unknown" || !r.text
        ? { label: ratingPolarity(r.rating) as SentimentLabel, score: 0 }
        : labelReview(masses, r.rating, critical, LABEL_PARAMS, lukewarm);
    const score = byRules.score;
    let label = byRules.label;
    if (r.language !== "unknown" && r.text && (model || options.onEvidence)) {
      const evidence: SentimentEvidence = {
        language: r.language,
        sentences: folded.map((s) => s.tokens),
        sentenceScores,
        rating: r.rating,
        ruleLabel: label,
        score,
        masses,
        lukewarm,
        critical,
        question: r.text.includes("?"),
        exclaims: r.text.includes("!"),
      };
      options.onEvidence?.(r.id, evidence);
      if (model) label = predictLabel(model, featuresOf(evidence, features), critical ? CRITICAL_LABELS : undefined);
    }
    const mentions: Mention[] = [];
    const placed = new Set<readonly Hazard[]>();
    for (const { segment, sentence, sentenceScore, hazards: partHazards, money } of parts) {
      const categories = new Set<Category>(categoriesOf(segment.tokens, r.language as Language));
      if (money) categories.add("price");
      // A sentence reporting a hazard is about the food or the cleanliness (the guide's rule) even
      // when it names neither ("the fire exit was chained", "itchy lumps every morning").
      // A sentence reporting a hazard is about the hazard: its minutes are how soon it struck ("within 10
      // minutes"), its beds and rooms where it was, and an illness told by where it was spent ("never
      // left the bathroom") is not about cleanliness.
      if (partHazards.length) {
        categories.delete("waiting_time");
        categories.delete("ambience");
        if (partHazards.includes("illness") && !partHazards.some((h) => h === "hygiene" || h === "vermin"))
          categories.delete("cleanliness");
      }
      if (partHazards.length && !placed.has(partHazards)) {
        placed.add(partHazards);
        if (!categories.has("food") && !categories.has("cleanliness"))
          categories.add(partHazards.some((h) => HAZARD_FOOD.has(h)) ? "food" : "cleanliness");
      }
      if (categories.size === 0) continue;
      const own = segment.pos - segment.neg;
      const partCritical = partHazards.length > 0;
      const polarity = partCritical
        ? "negative"
        : Math.abs(own) >= 1
          ? polarityOf(own)
          : Math.abs(sentenceScore) >= 1
            ? polarityOf(sentenceScore)
            : ratingPolarity(r.rating);
      const mentionScore = partCritical ? Math.min(own, -1) : own || sentenceScore;
      for (const category of categories)
        mentions.push({
          category,
          polarity,
          score: Math.round(mentionScore * 100) / 100,
          sentence,
          critical: partCritical,
        });
    }
    out.push({
      ...r,
      sentiment: Math.round(score * 100) / 100,
      compound: compound(score),
      label,
      mentions,
      critical,
      hazards: [...hazards],
    });
  }
  const untagged = out.filter((r) => r.text && r.mentions.length === 0).length;
  return { output: out, itemsOut: out.length, warnings: untagged ? [`${untagged} texts matched no category`] : [] };
}

/**
 * Stage 2 with a language model (PIPELINE_LLM_CLASSIFY): the rules classify every review as above;
 * then the model labels the texts in batches (cached by text hash). Its sentiment and categories
 * replace the rules' for the reviews it answered; the critical flag is the union of both (a missed
 * health-and-safety report costs more than a false alarm); a batch that failed keeps the rules'
 * result. Aspect-level mentions and quotes stay the rules' (they need sentences). Warnings say how
 * many texts the model labelled and how often it disagreed with the rules.
 */
export async function classifyWithModel(
  reviews: readonly NormalizedReview[],
  model: ModelClassifier | null,
): Promise<StageResult<ClassifiedReview[]>> {
  const base = classify(reviews);
  if (!model) return base;
  const inputs = base.output
    .filter((r) => r.text)
    .map((r) => ({ id: r.id, text: r.text, rating: r.rating, language: r.language }));
  const { labels, requests, cached, failedBatches } = await model.classify(inputs);
  let byModel = 0;
  let sentimentDiffers = 0;
  let criticalDiffers = 0;
  const output = base.output.map((r): ClassifiedReview => {
    const m = labels.get(r.id);
    if (!m) return r;
    byModel++;
    if (m.sentiment !== r.label) sentimentDiffers++;
    if (m.critical !== r.critical) criticalDiffers++;
    return {
      ...r,
      label: m.sentiment,
      critical: r.critical || m.critical,
      labelSource: "model",
      modelCategories: m.categories,
    };
  });
  return {
    output,
    itemsOut: output.length,
    warnings: [
      ...(base.warnings ?? []),
      modelWarning({
        byModel,
        total: inputs.length,
        cached,
        requests,
        failed: failedBatches,
        sentiment: sentimentDiffers,
        critical: criticalDiffers,
      }),
    ],
  };
}
