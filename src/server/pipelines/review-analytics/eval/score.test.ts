import { describe, expect, it } from "vitest";
import { SPLITS, languagesOf, loadSplit } from "./dataset";
import { checkGoals, score, type Labelled, type Predicted } from "./score";

const gold = (over: Partial<Labelled>): Labelled => ({
  id: "x",
  language: "en",
  rating: 3,
  text: "t",
  sentiment: "neutral",
  categories: [],
  critical: false,
  ...over,
});
const said = (over: Partial<Predicted>): Predicted => ({
  language: "en",
  sentiment: "neutral",
  categories: [],
  critical: false,
  ...over,
});

describe("evaluation scores", () => {
  it("computes accuracy, per-class and macro F1 over the classes the labels hold, and the confusion matrix", () => {
    const s = score([
      { gold: gold({ sentiment: "positive" }), predicted: said({ sentiment: "positive" }) },
      { gold: gold({ sentiment: "positive" }), predicted: said({ sentiment: "neutral" }) },
      { gold: gold({ sentiment: "negative" }), predicted: said({ sentiment: "negative" }) },
      { gold: gold({ sentiment: "neutral" }), predicted: said({ sentiment: "positive" }) },
    ]);
    expect(s.sentiment.accuracy).toBe(0.5);
    expect(s.sentiment.perClass.positive).toMatchObject({ precision: 0.5, recall: 0.5, f1: 0.5, support: 2 });
    expect(s.sentiment.perClass.negative.f1).toBe(1);
    expect(s.sentiment.perClass.neutral.f1).toBe(0);
    // mixed has no label here: it does not count in the macro average.
    expect(s.sentiment.macroF1).toBeCloseTo((0.5 + 1 + 0) / 3);
    expect(s.sentiment.confusion.positive).toEqual({ positive: 1, negative: 0, neutral: 1, mixed: 0 });
  });

  it("counts categories per (review, category) pair, critical as a binary class, and the language", () => {
    const s = score([
      {
        gold: gold({ categories: ["food", "price"], critical: true }),
        predicted: said({ categories: ["food", "service"], critical: true }),
      },
      {
        gold: gold({ categories: [], critical: true, language: "de" }),
        predicted: said({ categories: ["food"], critical: false, language: "en" }),
      },
      { gold: gold({ categories: ["food"] }), predicted: said({ categories: ["food"], critical: true }) },
    ]);
    expect(s.categories.micro).toMatchObject({ precision: 2 / 4, recall: 2 / 3, support: 3 });
    expect(s.categories.perCategory.food).toMatchObject({ precision: 2 / 3, recall: 1 });
    expect(s.critical).toMatchObject({ tp: 1, fp: 1, fn: 1, precision: 0.5, recall: 0.5 });
    expect(s.languageAccuracy).toBeCloseTo(2 / 3);
  });

  it("checks each goal, overall and per language", () => {
    const perfect = score([
      {
        gold: gold({ sentiment: "positive", categories: ["food"], critical: true }),
        predicted: said({ sentiment: "positive", categories: ["food"], critical: true }),
      },
    ]);
    expect(checkGoals(perfect, { en: perfect }).every((g) => g.met)).toBe(true);
    const wrong = score([
      { gold: gold({ sentiment: "positive" }), predicted: said({ sentiment: "negative", language: "es" }) },
    ]);
    expect(
      checkGoals(wrong, { en: wrong })
        .filter((g) => !g.met)
        .map((g) => g.goal),
    ).toEqual(expect.arrayContaining(["sentiment macro-F1", "sentiment macro-F1 (en)", "language accuracy"]));
  });
});

describe("the labelled set", () => {
  it.each(SPLITS)(
    "%s: every line valid, ids unique, at least the guide's size and critical share per language",
    (split) => {
      const ids = new Set<string>();
      for (const language of languagesOf(split)) {
        const items = loadSplit(split, language);
        expect(items.length).toBeGreaterThanOrEqual(split === "dev" ? 150 : 60);
        expect(items.filter((r) => r.critical).length / items.length).toBeGreaterThanOrEqual(0.2);
        for (const r of items) {
          expect(ids.has(r.id), r.id).toBe(false);
          ids.add(r.id);
        }
      }
      expect(languagesOf(split)).toEqual(["en", "es", "de"]);
    },
  );
});
