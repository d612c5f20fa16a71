// npm run train:analytics [-- --check]
// Trains the learned label model (sentiment-model.ts) on eval/train/*.jsonl only: the dev and test
// splits measure it and are never read here. The regularisation and class weighting are chosen by
// 5-fold cross-validation on the training reviews; the chosen model is fitted on all of them and
// written to sentiment-model.json with the digest of the data it was fitted on. With --check, the
// model is fitted again with the recorded settings and compared with the file in the tree instead of
// written (exit 1 when they differ: the shipped model must be the one this data makes).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { classify } from "../classify";
import { normalize } from "../normalize";
import { featuresOf, type SentimentEvidence, type SentimentModel } from "../sentiment-model";
import { SENTIMENT_LABELS, type SentimentLabel } from "../sentiment";
import { loadTraining, trainingDigest } from "./dataset";
import { score, type Labelled } from "./score";

const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
const DIR = import.meta.dirname;
const OUT = path.join(DIR, "..", "sentiment-model.json");
const CLASSES = SENTIMENT_LABELS;
const K = CLASSES.length;
/** Words and word pairs seen in fewer training reviews than this are left out (noise, names). */
const MIN_DF = 2;
const EPOCHS = 250;
const LEARNING_RATE = 0.05;
const FOLDS = 5;
const NO_STARS = "~nostars";
const GRID = { l2: [3e-4, 1e-3, 3e-3, 1e-2], balanced: [false, true] };

interface Example {
  id: string;
  gold: Labelled;
  label: number;
  critical: boolean;
  /** The rules' own label (the baseline printed beside the model's). */
  rule: SentimentLabel;
  /** Feature indexes and values. */
  idx: Int32Array;
  val: Float64Array;
}

/**
 * Runs normalize and classify (rules only) as the pipeline does and turns each review into features.
 * Each review is also taken once without its stars (id `<id>~nostars`, scored in the same fold):
 * some reviews come without a rating, and the words alone must then decide.
 */
function examplesOf(labelled: readonly Labelled[]): { examples: Example[]; names: string[] } {
  const evidence = new Map<string, SentimentEvidence>();
  const items = labelled.flatMap((r) => [r, { ...r, id: `${r.id}${NO_STARS}`, rating: null as unknown as number }]);
  const normalized = normalize(
    items.map((r) => ({ id: r.id, author: null, rating: r.rating, text: r.text, language: null, publishedAt: null })),
  ).output;
  classify(normalized, { model: null, onEvidence: (id, e) => evidence.set(id, e) });
  const maps = items.map((r) => {
    const e = evidence.get(r.id);
    return e ? new Map(featuresOf(e)) : new Map<string, number>();
  });
  const df = new Map<string, number>();
  // Document frequency over the reviews, not their copies without stars.
  maps.forEach((m, j) => {
    if (j % 2 === 0) for (const name of m.keys()) df.set(name, (df.get(name) ?? 0) + 1);
  });
  const names = [...df]
    .filter(([name, n]) => !/^[wb]:/.test(name) || n >= MIN_DF)
    .map(([name]) => name)
    .sort();
  const index = new Map(names.map((n, i) => [n, i]));
  const examples = items.map((gold, j): Example => {
    const pairs = [...maps[j]!].filter(([name]) => index.has(name));
    return {
      id: gold.id,
      gold,
      label: CLASSES.indexOf(gold.sentiment),
      critical: evidence.get(gold.id)?.critical ?? false,
      rule: evidence.get(gold.id)?.ruleLabel ?? "neutral",
      idx: Int32Array.from(pairs.map(([n]) => index.get(n)!)),
      val: Float64Array.from(pairs.map(([, v]) => v)),
    };
  });
  return { examples, names };
}

/** Multinomial logistic regression, full-batch Adam, L2 on the weights (not the bias). */
function fit(
  examples: readonly Example[],
  features: number,
  l2: number,
  balanced: boolean,
): { bias: Float64Array; weights: Float64Array } {
  const count = new Array<number>(K).fill(0);
  for (const e of examples) count[e.label]!++;
  const classWeight = count.map((c) => (balanced && c > 0 ? examples.length / (K * c) : 1));
  const theta = new Float64Array(K + features * K); // bias first, then weights
  const m = new Float64Array(theta.length);
  const v = new Float64Array(theta.length);
  const grad = new Float64Array(theta.length);
  const z = new Float64Array(K);
  const b1 = 0.9;
  const b2 = 0.999;
  for (let t = 1; t <= EPOCHS; t++) {
    grad.fill(0);
    for (const e of examples) {
      for (let c = 0; c < K; c++) z[c] = theta[c]!;
      for (let j = 0; j < e.idx.length; j++)
        for (let c = 0; c < K; c++) z[c]! += e.val[j]! * theta[K + e.idx[j]! * K + c]!;
      let max = -Infinity;
      for (let c = 0; c < K; c++) max = Math.max(max, z[c]!);
      let sum = 0;
      for (let c = 0; c < K; c++) sum += z[c] = Math.exp(z[c]! - max);
      const w = classWeight[e.label]! / examples.length;
      for (let c = 0; c < K; c++) {
        const g = (z[c]! / sum - (c === e.label ? 1 : 0)) * w;
        grad[c]! += g;
        for (let j = 0; j < e.idx.length; j++) grad[K + e.idx[j]! * K + c]! += g * e.val[j]!;
      }
    }
    for (let i = K; i < theta.length; i++) grad[i]! += l2 * theta[i]!;
    for (let i = 0; i < theta.length; i++) {
      m[i] = b1 * m[i]! + (1 - b1) * grad[i]!;
      v[i] = b2 * v[i]! + (1 - b2) * grad[i]! * grad[i]!;
      theta[i]! -= (LEARNING_RATE * (m[i]! / (1 - b1 ** t))) / (Math.sqrt(v[i]! / (1 - b2 ** t)) + 1e-8);
    }
  }
  return { bias: theta.slice(0, K), weights: theta.slice(K) };
}

function predict(fitted: { bias: Float64Array; weights: Float64Array }, e: Example): SentimentLabel {
  const z = Float64Array.from(fitted.bias);
  for (let j = 0; j < e.idx.length; j++)
    for (let c = 0; c < K; c++) z[c]! += e.val[j]! * fitted.weights[e.idx[j]! * K + c]!;
  let best = -1;
  for (let c = 0; c < K; c++) {
    if (e.critical && CLASSES[c] !== "negative" && CLASSES[c] !== "mixed") continue;
    if (best < 0 || z[c]! > z[best]!) best = c;
  }
  return CLASSES[best]!;
}

const macroF1 = (pairs: { gold: Labelled; sentiment: SentimentLabel }[]) =>
  score(
    pairs.map(({ gold, sentiment }) => ({
      gold,
      predicted: { language: gold.language, sentiment, categories: gold.categories, critical: gold.critical },
    })),
  ).sentiment.macroF1;

const fold = (id: string) => createHash("sha256").update(id.replace(NO_STARS, "")).digest()[0]! % FOLDS;

const items = loadTraining();
const { examples, names } = examplesOf(items);
console.log(
  `training reviews: ${items.length} (${CLASSES.map((c) => `${c} ${items.filter((r) => r.sentiment === c).length}`).join(", ")}); features: ${names.length}`,
);
const recorded = (JSON.parse(readFileSync(OUT, "utf8")) as SentimentModel).trainedOn;
let best: { l2: number; balanced: boolean; f1: number } | null =
  values.check && recorded
    ? { l2: recorded.l2, balanced: recorded.balanced, f1: recorded.crossValidatedMacroF1 }
    : null;
for (const l2 of best ? [] : GRID.l2) {
  for (const balanced of GRID.balanced) {
    const pairs: { gold: Labelled; sentiment: SentimentLabel }[] = [];
    for (let k = 0; k < FOLDS; k++) {
      const fitted = fit(
        examples.filter((e) => fold(e.id) !== k),
        names.length,
        l2,
        balanced,
      );
      for (const e of examples.filter((x) => fold(x.id) === k && !x.id.endsWith(NO_STARS)))
        pairs.push({ gold: e.gold, sentiment: predict(fitted, e) });
    }
    const f1 = macroF1(pairs);
    console.log(`  l2 ${l2}, ${balanced ? "balanced" : "unweighted"}: cross-validated macro-F1 ${f1.toFixed(3)}`);
    if (!best || f1 > best.f1) best = { l2, balanced, f1 };
  }
}
const chosen = best!;
const fitted = fit(examples, names.length, chosen.l2, chosen.balanced);
const rulesF1 = macroF1(
  examples.filter((e) => !e.id.endsWith(NO_STARS)).map((e) => ({ gold: e.gold, sentiment: e.rule })),
);
console.log(
  `chosen: l2 ${chosen.l2}, ${chosen.balanced ? "balanced" : "unweighted"} (cross-validated macro-F1 ${chosen.f1.toFixed(3)}; the rules alone on the same reviews ${rulesF1.toFixed(3)})`,
);

// Keep the features whose weights matter; round so the file is small and diffs are readable.
const kept: number[] = [];
for (let i = 0; i < names.length; i++) {
  let most = 0;
  for (let c = 0; c < K; c++) most = Math.max(most, Math.abs(fitted.weights[i * K + c]!));
  if (most >= 0.005) kept.push(i);
}
const round = (x: number) => Math.round(x * 10_000) / 10_000;
const model: SentimentModel = {
  classes: CLASSES,
  bias: Array.from(fitted.bias, round),
  features: kept.map((i) => names[i]!),
  weights: kept.flatMap((i) => Array.from(fitted.weights.slice(i * K, i * K + K), round)),
  trainedOn: {
    reviews: items.length,
    sha256: trainingDigest(),
    l2: chosen.l2,
    balanced: chosen.balanced,
    crossValidatedMacroF1: round(chosen.f1),
  },
};
const text = `${JSON.stringify(model)}\n`;
if (values.check) {
  const same = readFileSync(OUT, "utf8") === text;
  console.log(
    same
      ? "sentiment-model.json is the model this data makes"
      : "sentiment-model.json differs from the model this data makes: run npm run train:analytics",
  );
  if (!same) process.exitCode = 1;
} else {
  writeFileSync(OUT, text);
  console.log(
    `wrote ${path.relative(process.cwd(), OUT)}: ${kept.length} features, ${(text.length / 1024).toFixed(0)} KB`,
  );
}
