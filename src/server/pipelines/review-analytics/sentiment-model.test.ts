import { describe, expect, it } from "vitest";
import { classify, shippedSentimentModel } from "./classify";
import { normalize } from "./normalize";
import {
  featuresOf,
  loadModel,
  predictLabel,
  probabilities,
  type SentimentEvidence,
  type SentimentModel,
} from "./sentiment-model";
import shipped from "./sentiment-model.json";
import { loadSplit, loadTraining, SPLITS, languagesOf, trainingDigest } from "./eval/dataset";

const evidence = (over: Partial<SentimentEvidence> = {}): SentimentEvidence => ({
  language: "en",
  sentences: [
    ["food", "was", "fine"],
    ["nothing", "special"],
  ],
  sentenceScores: [1.2, -0.4],
  rating: 3,
  ruleLabel: "neutral",
  score: 0.8,
  masses: { pos: 1.2, neg: 0.4, rawPos: 1.2, rawNeg: 0.4 },
  lukewarm: 1,
  critical: false,
  question: false,
  exclaims: false,
  ...over,
});

describe("learned label model", () => {
  it("names the rules' measures, the stars and every word and word pair of the review once", () => {
    const f = featuresOf(evidence());
    expect(f.get("r:label:neutral")).toBe(1);
    expect(f.get("s:3")).toBe(1);
    expect(f.get("r:label:neutral|s:3")).toBe(1);
    expect(f.get("r:lukewarm")).toBe(1);
    expect(f.get("w:en:fine")).toBe(1);
    expect(f.get("b:en:was fine")).toBe(1);
    expect(f.get("b:en:nothing special")).toBe(1);
    // No pair across sentences, and a review without stars says so.
    expect(f.has("b:en:fine nothing")).toBe(false);
    expect(featuresOf(evidence({ rating: null })).get("s:none")).toBe(1);
    expect(f.get("r:first")).toBeCloseTo(Math.tanh(1.2 / 3));
    expect(f.get("r:last")).toBeCloseTo(Math.tanh(-0.4 / 3));
  });

  it("refuses a model whose weights do not match its features and classes", () => {
    const ok: SentimentModel = {
      classes: ["positive", "negative"],
      bias: [0, 0],
      features: ["w:en:good"],
      weights: [1, -1],
    };
    expect(() => loadModel(ok)).not.toThrow();
    expect(() => loadModel({ ...ok, weights: [1] })).toThrow(/do not match/);
    expect(() => loadModel({ ...ok, classes: ["positive", "angry" as never] })).toThrow(/unknown class/);
  });

  it("takes the most likely label, among the allowed ones when a hazard is reported", () => {
    const m = loadModel({
      classes: ["positive", "neutral", "negative", "mixed"],
      bias: [0, 0, 0, 0],
      features: ["w:en:great", "w:en:sick"],
      weights: [3, 0, 0, 0, 0, 0, 1, 0.5],
    });
    const great = new Map([["w:en:great", 1]]);
    expect(predictLabel(m, great)).toBe("positive");
    const p = probabilities(m, great);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    const both = new Map([
      ["w:en:great", 1],
      ["w:en:sick", 1],
    ]);
    expect(predictLabel(m, both)).toBe("positive");
    expect(predictLabel(m, both, new Set(["negative", "mixed"]))).toBe("negative");
    // Unknown features are ignored.
    expect(predictLabel(m, new Map([["w:en:unseen", 1]]))).toBe("positive");
  });

  it("is the model fitted on the training files in the tree, and those share no text with dev or test", () => {
    const model = shipped as SentimentModel;
    expect(model.trainedOn?.sha256, "run npm run train:analytics after changing eval/train").toBe(trainingDigest());
    const training = loadTraining();
    expect(model.trainedOn?.reviews).toBe(training.length);
    expect(training.length).toBeGreaterThanOrEqual(1000);
    const key = (t: string) => t.toLowerCase().replace(/\s+/g, " ").trim();
    const measured = new Set(
      SPLITS.flatMap((split) => languagesOf(split).flatMap((l) => loadSplit(split, l).map((r) => key(r.text)))),
    );
    expect(training.filter((r) => measured.has(key(r.text))).map((r) => r.id)).toEqual([]);
    expect(new Set(training.map((r) => r.id)).size).toBe(training.length);
  });

  it("labels through classify, keeping a review that reports a hazard negative or mixed", () => {
    expect(shippedSentimentModel()).not.toBeNull();
    const reviews = normalize([
      {
        id: "a",
        author: null,
        rating: 5,
        text: "Gorgeous terrace and lovely staff, but I was vomiting all night after the mussels.",
        language: "en",
        publishedAt: null,
      },
      {
        id: "b",
        author: null,
        rating: 5,
        text: "Absolutely wonderful dinner, the best paella we have had in years!",
        language: "en",
        publishedAt: null,
      },
    ]).output;
    const [a, b] = classify(reviews).output;
    expect(a?.critical).toBe(true);
    expect(["negative", "mixed"]).toContain(a?.label);
    expect(b?.label).toBe("positive");
    // The rules alone, when asked.
    expect(classify(reviews, { model: null }).output[1]?.label).toBe("positive");
  });
});
