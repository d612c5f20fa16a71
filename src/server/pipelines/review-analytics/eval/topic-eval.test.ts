import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../language";
import { TOPIC_VOCABULARY, TOPICS } from "../topic-vocabulary";
import { evaluateTopics, loadTopicSet, scoreTopics, TOPIC_GOAL, topicGoals } from "./topic-eval";

describe("complaint topic evaluation (eval/topics)", () => {
  const evaluation = evaluateTopics();

  it.each(LANGUAGES)(
    "holds at least 30 labelled complaint reviews in %s, some with two topics and some with none",
    (l) => {
      const items = loadTopicSet(l);
      expect(items.length).toBeGreaterThanOrEqual(30);
      expect(items.filter((i) => i.topics.length === 2).length).toBeGreaterThanOrEqual(3);
      expect(items.filter((i) => i.topics.length === 0).length).toBeGreaterThanOrEqual(2);
      expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    },
  );

  it.each(LANGUAGES)(`finds the labelled topics in %s with precision and recall ≥ ${TOPIC_GOAL}`, (l) => {
    const s = evaluation.perLanguage[l].topics;
    expect(s.precision).toBeGreaterThanOrEqual(TOPIC_GOAL);
    expect(s.recall).toBeGreaterThanOrEqual(TOPIC_GOAL);
  });

  it(`reaches precision and recall ≥ ${TOPIC_GOAL} overall, above the baseline of two-word phrases`, () => {
    const { topics, baseline } = evaluation.overall;
    expect(topicGoals(evaluation).every((g) => g.met)).toBe(true);
    expect(topics.f1).toBeGreaterThan(baseline.f1);
  });

  it("scores (review, topic) pairs: a wrong topic costs precision, a missed one recall", () => {
    const items = [
      { id: "a", language: "en" as const, rating: 1, text: "x", topics: ["cold_food" as const, "noise" as const] },
      { id: "b", language: "en" as const, rating: 1, text: "y", topics: [] },
    ];
    const s = scoreTopics(
      items,
      new Map([
        ["a", ["cold_food" as const]],
        ["b", ["rude_staff" as const]],
      ]),
    );
    expect(s).toMatchObject({ tp: 1, fp: 1, fn: 1, precision: 0.5, recall: 0.5 });
  });

  it("gives every topic of the vocabulary a category, and a label and an action in en, es and de", () => {
    for (const t of TOPICS)
      for (const l of LANGUAGES) {
        expect(TOPIC_VOCABULARY[t].label[l].length).toBeGreaterThan(2);
        expect(TOPIC_VOCABULARY[t].action[l].length).toBeGreaterThan(5);
      }
  });
});
