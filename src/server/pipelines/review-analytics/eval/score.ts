import { z } from "zod";
import { CATEGORIES, type Category } from "../taxonomy";
import { LANGUAGES, type DetectedLanguage, type Language } from "../language";

/** The labels of the evaluation set (GUIDE.md): the classifier's sentiment labels. */
export const SENTIMENTS = ["positive", "negative", "neutral", "mixed"] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export const ZLabelled = z.object({
  id: z.string().min(1),
  language: z.enum(LANGUAGES),
  rating: z.number().int().min(1).max(5),
  text: z.string().min(1),
  sentiment: z.enum(SENTIMENTS),
  categories: z.array(z.enum(CATEGORIES)),
  critical: z.boolean(),
});
export type Labelled = z.infer<typeof ZLabelled>;

/** What the classifier said about one review. */
export interface Predicted {
  language: DetectedLanguage;
  sentiment: Sentiment;
  categories: readonly Category[];
  critical: boolean;
}

export interface Prf {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface Scores {
  reviews: number;
  languageAccuracy: number;
  sentiment: {
    accuracy: number;
    macroF1: number;
    perClass: Record<Sentiment, Prf>;
    confusion: Record<Sentiment, Record<Sentiment, number>>;
  };
  categories: { micro: Prf; perCategory: Record<Category, Prf> };
  critical: Prf & { tp: number; fp: number; fn: number };
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

function prf(tp: number, fp: number, fn: number): Prf {
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  return { precision, recall, f1: ratio(2 * precision * recall, precision + recall), support: tp + fn };
}

/**
 * The figures of one set of (label, prediction) pairs: language accuracy; sentiment accuracy, per-class
 * precision/recall/F1, macro-F1 (mean F1 of the classes the labels hold) and the confusion matrix
 * (rows: label, columns: prediction); category micro and per-category P/R/F1 over (review, category)
 * pairs; critical P/R/F1.
 */
export function score(pairs: readonly { gold: Labelled; predicted: Predicted }[]): Scores {
  const confusion = Object.fromEntries(
    SENTIMENTS.map((g) => [g, Object.fromEntries(SENTIMENTS.map((p) => [p, 0]))]),
  ) as Scores["sentiment"]["confusion"];
  const cat = Object.fromEntries(CATEGORIES.map((c) => [c, { tp: 0, fp: 0, fn: 0 }])) as Record<
    Category,
    { tp: number; fp: number; fn: number }
  >;
  const crit = { tp: 0, fp: 0, fn: 0 };
  let languageHits = 0;
  let sentimentHits = 0;
  for (const { gold, predicted } of pairs) {
    if (predicted.language === gold.language) languageHits++;
    confusion[gold.sentiment][predicted.sentiment]++;
    if (gold.sentiment === predicted.sentiment) sentimentHits++;
    for (const c of CATEGORIES) {
      const g = gold.categories.includes(c);
      const p = predicted.categories.includes(c);
      if (g && p) cat[c].tp++;
      else if (p) cat[c].fp++;
      else if (g) cat[c].fn++;
    }
    if (gold.critical && predicted.critical) crit.tp++;
    else if (predicted.critical) crit.fp++;
    else if (gold.critical) crit.fn++;
  }
  const perClass = Object.fromEntries(
    SENTIMENTS.map((s) => {
      const tp = confusion[s][s];
      const fp = SENTIMENTS.reduce((n, g) => n + (g === s ? 0 : confusion[g][s]), 0);
      const fn = SENTIMENTS.reduce((n, p) => n + (p === s ? 0 : confusion[s][p]), 0);
      return [s, prf(tp, fp, fn)];
    }),
  ) as Record<Sentiment, Prf>;
  const present = SENTIMENTS.filter((s) => perClass[s].support > 0);
  const sum = CATEGORIES.reduce((a, c) => ({ tp: a.tp + cat[c].tp, fp: a.fp + cat[c].fp, fn: a.fn + cat[c].fn }), {
    tp: 0,
    fp: 0,
    fn: 0,
  });
  return {
    reviews: pairs.length,
    languageAccuracy: ratio(languageHits, pairs.length),
    sentiment: {
      accuracy: ratio(sentimentHits, pairs.length),
      macroF1: ratio(
        present.reduce((n, s) => n + perClass[s].f1, 0),
        present.length,
      ),
      perClass,
      confusion,
    },
    categories: {
      micro: prf(sum.tp, sum.fp, sum.fn),
      perCategory: Object.fromEntries(CATEGORIES.map((c) => [c, prf(cat[c].tp, cat[c].fp, cat[c].fn)])) as Record<
        Category,
        Prf
      >,
    },
    critical: { ...prf(crit.tp, crit.fp, crit.fn), ...crit },
  };
}

/** The goals of issue 20 (docs/pipelines.md, "Accuracy"). */
export const GOALS = {
  sentimentMacroF1: 0.8,
  sentimentMacroF1PerLanguage: 0.75,
  categoryMicroF1: 0.85,
  criticalRecall: 0.9,
  criticalPrecision: 0.9,
  languageAccuracy: 0.99,
} as const;

export interface GoalCheck {
  goal: string;
  value: number;
  target: number;
  met: boolean;
}

/** Each goal against the overall scores and those of each language. */
export function checkGoals(overall: Scores, perLanguage: Partial<Record<Language, Scores>>): GoalCheck[] {
  const at = (goal: string, value: number, target: number): GoalCheck => ({
    goal,
    value,
    target,
    met: value >= target,
  });
  return [
    at("sentiment macro-F1", overall.sentiment.macroF1, GOALS.sentimentMacroF1),
    ...Object.entries(perLanguage).map(([lang, s]) =>
      at(`sentiment macro-F1 (${lang})`, s.sentiment.macroF1, GOALS.sentimentMacroF1PerLanguage),
    ),
    at("category micro-F1", overall.categories.micro.f1, GOALS.categoryMicroF1),
    at("critical recall", overall.critical.recall, GOALS.criticalRecall),
    at("critical precision", overall.critical.precision, GOALS.criticalPrecision),
    at("language accuracy", overall.languageAccuracy, GOALS.languageAccuracy),
  ];
}
