import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { complaintPhrases } from "../aggregate";
import { classify } from "../classify";
import { LANGUAGES, type Language } from "../language";
import type { ClassifiedReview } from "../model";
import { normalize } from "../normalize";
import { PHRASE_STOPWORDS } from "../phrase-stopwords";
import { fold, tokenize } from "../text";
import { topicsOfReview } from "../topics";
import { TOPIC_VOCABULARY, TOPICS, type Topic } from "../topic-vocabulary";

// The topic evaluation (eval/topics/README.md): the complaint topics the pipeline finds in each
// labelled review against the topics labelled, as precision and recall over (review, topic) pairs,
// per language and overall, beside the baseline measured in the same run: the two-word complaint
// phrases the report used before topics (aggregate.ts `complaintPhrases`), each mapped to the
// vocabulary topic of its category whose label in the review's language shares a word with it.

export const ZTopicLabelled = z.object({
  id: z.string().min(1),
  language: z.enum(LANGUAGES),
  rating: z.number().int().min(1).max(5),
  text: z.string().min(1),
  topics: z.array(z.enum(TOPICS as [Topic, ...Topic[]])),
});
export type TopicLabelled = z.infer<typeof ZTopicLabelled>;

const DIR = path.join(import.meta.dirname, "topics");

/** The labelled topic set of one language; a malformed line stops with its place. */
export function loadTopicSet(language: Language): TopicLabelled[] {
  return readFileSync(path.join(DIR, `${language}.jsonl`), "utf8")
    .split("\n")
    .map((line, i) => [line.trim(), i + 1] as const)
    .filter(([line]) => line.length > 0)
    .map(([line, n]) => {
      const parsed = ZTopicLabelled.safeParse(JSON.parse(line));
      if (!parsed.success)
        throw new Error(
          `topics/${language}.jsonl:${n}: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
        );
      if (parsed.data.language !== language) throw new Error(`topics/${language}.jsonl:${n}: language`);
      return parsed.data;
    });
}

/** The labelled reviews through the pipeline's normalize and classify stages (language detected, no hint). */
function classified(items: readonly TopicLabelled[]): Map<string, ClassifiedReview> {
  const raw = items.map((r) => ({
    id: r.id,
    author: null,
    rating: r.rating,
    text: r.text,
    language: null,
    publishedAt: null,
  }));
  return new Map(classify(normalize(raw).output).output.map((r) => [r.id, r]));
}

/** The pipeline's topics of each review. */
export function predictTopics(items: readonly TopicLabelled[]): Map<string, Topic[]> {
  const reviews = classified(items);
  return new Map(
    items.map((item) => {
      const r = reviews.get(item.id);
      return [item.id, r ? [...new Set(topicsOfReview(r).map((t) => t.topic))] : []];
    }),
  );
}

const words = (text: string, language: string) =>
  tokenize(text)
    .map((w) => fold(w, language))
    .filter((w) => w.length >= 3 && !PHRASE_STOPWORDS.has(w));

/**
 * The baseline: the complaint phrases of each negative mention (what the report listed before
 * topics), each mapped to the topic of the mention's category whose label in the review's
 * language shares the most words with it (none when no word is shared).
 */
export function baselineTopics(items: readonly TopicLabelled[]): Map<string, Topic[]> {
  const reviews = classified(items);
  return new Map(
    items.map((item) => {
      const r = reviews.get(item.id);
      const out = new Set<Topic>();
      if (r && r.language !== "unknown")
        for (const m of r.mentions) {
          if (m.polarity !== "negative") continue;
          for (const phrase of complaintPhrases(m.sentence, r.language)) {
            const own = new Set(words(phrase, r.language));
            let best: { topic: Topic; shared: number } | null = null;
            for (const topic of TOPICS) {
              const def = TOPIC_VOCABULARY[topic];
              if (def.category !== m.category) continue;
              const shared = words(def.label[r.language], r.language).filter((w) => own.has(w)).length;
              if (shared > 0 && (!best || shared > best.shared)) best = { topic, shared };
            }
            if (best) out.add(best.topic);
          }
        }
      return [item.id, [...out]];
    }),
  );
}

export interface TopicScores {
  reviews: number;
  precision: number;
  recall: number;
  f1: number;
  tp: number;
  fp: number;
  fn: number;
}

/** Precision and recall over (review, topic) pairs. */
export function scoreTopics(items: readonly TopicLabelled[], predicted: Map<string, readonly Topic[]>): TopicScores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const item of items) {
    const gold = new Set(item.topics);
    const said = new Set(predicted.get(item.id) ?? []);
    for (const t of said)
      if (gold.has(t)) tp++;
      else fp++;
    for (const t of gold) if (!said.has(t)) fn++;
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  return {
    reviews: items.length,
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    tp,
    fp,
    fn,
  };
}

export interface TopicEvaluation {
  perLanguage: Record<Language, { topics: TopicScores; baseline: TopicScores }>;
  overall: { topics: TopicScores; baseline: TopicScores };
  /** Each review the extractor got wrong: what was labelled and what it said. */
  errors: { id: string; text: string; gold: Topic[]; predicted: Topic[] }[];
}

/** Scores the extractor and the baseline on the whole labelled set, per language and overall. */
export function evaluateTopics(): TopicEvaluation {
  const perLanguage = {} as TopicEvaluation["perLanguage"];
  const all: TopicLabelled[] = [];
  const allPredicted = new Map<string, Topic[]>();
  const allBaseline = new Map<string, Topic[]>();
  for (const language of LANGUAGES) {
    const items = loadTopicSet(language);
    const predicted = predictTopics(items);
    const baseline = baselineTopics(items);
    perLanguage[language] = { topics: scoreTopics(items, predicted), baseline: scoreTopics(items, baseline) };
    all.push(...items);
    for (const [k, v] of predicted) allPredicted.set(k, v);
    for (const [k, v] of baseline) allBaseline.set(k, v);
  }
  const errors = all
    .map((item) => ({
      id: item.id,
      text: item.text,
      gold: [...item.topics].sort(),
      predicted: [...(allPredicted.get(item.id) ?? [])].sort(),
    }))
    .filter((e) => e.gold.join() !== e.predicted.join());
  return {
    perLanguage,
    overall: { topics: scoreTopics(all, allPredicted), baseline: scoreTopics(all, allBaseline) },
    errors,
  };
}

/** The goal for topic precision and recall, per language and overall (issue 46). */
export const TOPIC_GOAL = 0.8;

/** Whether topic precision and recall reach TOPIC_GOAL, per language and overall. */
export function topicGoals(e: TopicEvaluation): { goal: string; value: number; met: boolean }[] {
  const rows: [string, TopicScores][] = [
    ["", e.overall.topics],
    ...LANGUAGES.map((l) => [` (${l})`, e.perLanguage[l].topics] as [string, TopicScores]),
  ];
  return rows.flatMap(([suffix, s]) => [
    { goal: `topic precision${suffix}`, value: s.precision, met: s.precision >= TOPIC_GOAL },
    { goal: `topic recall${suffix}`, value: s.recall, met: s.recall >= TOPIC_GOAL },
  ]);
}

/** The evaluation as printed by `npm run eval:analytics`. */
export function topicTable(e: TopicEvaluation, withErrors = false): string {
  const f = (n: number) => n.toFixed(3).padStart(7);
  const lines = [
    `\nreview-analytics complaint topics (eval/topics, ${e.overall.topics.reviews} labelled complaint reviews)`,
    `${"lang".padEnd(6)}${"reviews".padStart(8)}${"topic-P".padStart(9)}${"topic-R".padStart(9)}${"topic-F1".padStart(9)}${"base-P".padStart(9)}${"base-R".padStart(9)}${"base-F1".padStart(9)}`,
  ];
  const row = (name: string, s: { topics: TopicScores; baseline: TopicScores }) =>
    `${name.padEnd(6)}${String(s.topics.reviews).padStart(8)}  ${f(s.topics.precision)}  ${f(s.topics.recall)}  ${f(s.topics.f1)}  ${f(s.baseline.precision)}  ${f(s.baseline.recall)}  ${f(s.baseline.f1)}`;
  for (const language of LANGUAGES) lines.push(row(language, e.perLanguage[language]));
  lines.push(row("all", e.overall));
  lines.push(
    "(base: the two-word complaint phrases of the report before topics, mapped to the topic whose label shares a word)",
  );
  const o = e.overall.topics;
  lines.push(`topics: ${o.tp} found, ${o.fn} missed, ${o.fp} wrong`);
  if (withErrors) {
    lines.push("\ntopic errors:");
    for (const x of e.errors) lines.push(`${x.id} [${x.gold.join(",")}] → [${x.predicted.join(",")}]: ${x.text}`);
  }
  return lines.join("\n");
}
