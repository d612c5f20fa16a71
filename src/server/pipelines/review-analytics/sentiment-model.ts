import type { Language } from "./language";
import { SENTIMENT_LABELS, type SentimentLabel } from "./sentiment";

/**
 * The learned part of the review's label (docs/pipelines.md, "Sentiment"): a multinomial logistic
 * regression over what the rules measured (their label, masses, score, lukewarm verdicts, the
 * polarity of the first and last sentences, a hazard), the stars, and the review's folded words and
 * word pairs. It is trained by `npm run train:analytics` on `eval/train/` only (never on the dev or
 * test split, which measure it) and shipped as `sentiment-model.json`.
 */

/** What classify measured about one review, the model's input. */
export interface SentimentEvidence {
  language: Language;
  /** Folded tokens, sentence by sentence. */
  sentences: readonly (readonly string[])[];
  /** Each sentence's score (after turns and weights). */
  sentenceScores: readonly number[];
  rating: number | null;
  ruleLabel: SentimentLabel;
  score: number;
  masses: { pos: number; neg: number; rawPos: number; rawNeg: number };
  lukewarm: number;
  critical: boolean;
  question: boolean;
  exclaims: boolean;
}

export interface SentimentModel {
  /** Label order of each feature's weights. */
  classes: readonly SentimentLabel[];
  bias: readonly number[];
  /** Feature names, and their weights: `weights[i * classes.length + k]` is feature i's weight for class k. */
  features: readonly string[];
  weights: readonly number[];
  /** What it was fitted on and with (eval/train.ts): the training files' digest, the settings, its cross-validated macro-F1. */
  trainedOn?: { reviews: number; sha256: string; l2: number; balanced: boolean; crossValidatedMacroF1: number };
}

const squash = (x: number, scale: number) => Math.tanh(x / scale);

/**
 * The named features of one review with their values. Dense ones first (`r:` rules, `s:` stars),
 * then the words (`w:<lang>:<token>`) and word pairs (`b:<lang>:<token> <token>`) once each.
 */
export function featuresOf(e: SentimentEvidence, into = new Map<string, number>()): Map<string, number> {
  into.clear();
  const { pos, neg, rawPos, rawNeg } = e.masses;
  const stars = e.rating === null ? "none" : String(e.rating);
  into.set(`r:label:${e.ruleLabel}`, 1);
  into.set(`s:${stars}`, 1);
  into.set(`r:label:${e.ruleLabel}|s:${stars}`, 1);
  into.set("r:score", squash(e.score, 5));
  into.set("r:pos", squash(pos, 5));
  into.set("r:neg", squash(neg, 5));
  into.set("r:rawpos", squash(rawPos, 5));
  into.set("r:rawneg", squash(rawNeg, 5));
  const most = Math.max(rawPos, rawNeg);
  into.set("r:balance", most > 0 ? Math.min(rawPos, rawNeg) / most : 0);
  if (rawPos >= 1 && rawNeg >= 1) into.set("r:both", 1);
  if (e.lukewarm > 0) into.set("r:lukewarm", Math.min(e.lukewarm, 2));
  if (e.critical) into.set("r:critical", 1);
  if (e.question) into.set("r:question", 1);
  if (e.exclaims) into.set("r:exclaims", 1);
  const n = e.sentenceScores.length;
  if (n > 0) {
    into.set("r:first", squash(e.sentenceScores[0]!, 3));
    into.set("r:last", squash(e.sentenceScores[n - 1]!, 3));
    let up = 0;
    let down = 0;
    for (const s of e.sentenceScores) {
      if (s >= 1) up++;
      else if (s <= -1) down++;
    }
    into.set("r:up", up / n);
    into.set("r:down", down / n);
  }
  into.set(n <= 1 ? "r:short" : n >= 5 ? "r:long" : "r:medium", 1);
  // How much opinion per word: a short text that says one thing strongly outweighs the stars.
  let words = 0;
  for (const tokens of e.sentences) words += tokens.length;
  if (words > 0) {
    into.set("r:posdensity", squash(rawPos / words, 0.25));
    into.set("r:negdensity", squash(rawNeg / words, 0.25));
  }
  const w = `w:${e.language}:`;
  const b = `b:${e.language}:`;
  for (const tokens of e.sentences) {
    for (let i = 0; i < tokens.length; i++) {
      into.set(w + tokens[i], 1);
      if (i > 0) into.set(`${b}${tokens[i - 1]} ${tokens[i]}`, 1);
    }
  }
  return into;
}

/** A model ready to score: its features indexed. */
export interface LoadedModel {
  classes: readonly SentimentLabel[];
  bias: Float64Array;
  index: Map<string, number>;
  weights: Float64Array;
}

export function loadModel(m: SentimentModel): LoadedModel {
  if (m.weights.length !== m.features.length * m.classes.length || m.bias.length !== m.classes.length)
    throw new Error("sentiment model: weights do not match its features and classes");
  for (const c of m.classes) if (!SENTIMENT_LABELS.includes(c)) throw new Error(`sentiment model: unknown class ${c}`);
  return {
    classes: m.classes,
    bias: Float64Array.from(m.bias),
    index: new Map(m.features.map((f, i) => [f, i])),
    weights: Float64Array.from(m.weights),
  };
}

/** The class probabilities of one review's features (softmax of the linear scores). */
export function probabilities(model: LoadedModel, features: ReadonlyMap<string, number>): Float64Array {
  const k = model.classes.length;
  const z = Float64Array.from(model.bias);
  for (const [name, value] of features) {
    const i = model.index.get(name);
    if (i === undefined) continue;
    for (let c = 0; c < k; c++) z[c]! += value * model.weights[i * k + c]!;
  }
  let max = -Infinity;
  for (const v of z) max = Math.max(max, v);
  let sum = 0;
  for (let c = 0; c < k; c++) sum += z[c] = Math.exp(z[c]! - max);
  for (let c = 0; c < k; c++) z[c]! /= sum;
  return z;
}

/** The most likely label among `allowed` (a review that reports a hazard is negative or mixed). */
export function predictLabel(
  model: LoadedModel,
  features: ReadonlyMap<string, number>,
  allowed?: ReadonlySet<SentimentLabel>,
): SentimentLabel {
  const p = probabilities(model, features);
  let best: SentimentLabel | null = null;
  let bestP = -1;
  model.classes.forEach((c, k) => {
    if (allowed && !allowed.has(c)) return;
    if (p[k]! > bestP) {
      bestP = p[k]!;
      best = c;
    }
  });
  return best ?? (model.classes[0] as SentimentLabel);
}
