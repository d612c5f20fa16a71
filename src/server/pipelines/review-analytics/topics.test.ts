import { describe, expect, it } from "vitest";
import { classify } from "./classify";
import { normalize } from "./normalize";
import { expandPhrases, topicsOfReview, topicsOfSentence } from "./topics";
import { TOPIC_VOCABULARY, TOPICS } from "./topic-vocabulary";
import { TOPIC_RULES } from "./topics";

const topics = (text: string, language: "en" | "es" | "de") => topicsOfSentence(text, language).map((h) => h.topic);

describe("complaint topics", () => {
  it("expands [a/b] groups and splits hyphens as tokenize does", () => {
    expect(expandPhrases("[no/little] [flavour/taste]|mix-up")).toEqual([
      "no flavour",
      "no taste",
      "little flavour",
      "little taste",
      "mix up",
    ]);
  });

  it("gives a cue word to the topic of its nearest head", () => {
    expect(topics("The soup arrived cold.", "en")).toEqual(["cold_food"]);
    expect(topics("It was cold in the dining room.", "en")).toEqual(["room_temperature"]);
    expect(topics("We waited 40 minutes for a table.", "en")).toEqual(["wait_for_table"]);
    expect(topics("We waited 40 minutes for our burgers.", "en")).toEqual(["slow_food"]);
  });

  it("takes back a match after a negator, inside an exclusion or across a turn", () => {
    expect(topics("There was no queue at all.", "en")).toEqual([]);
    expect(topics("Ice cold beer on a hot day.", "en")).toEqual([]);
    expect(topics("Das Essen war nicht kalt.", "de")).toEqual([]);
    expect(topics("Freezing cold outside, but the soup was great.", "en")).toEqual([]);
  });

  it("finds the same topic in every language", () => {
    expect(topics("The toilets were filthy.", "en")).toEqual(["dirty_toilets"]);
    expect(topics("Los baños estaban sucísimos, muy sucios.", "es")).toEqual(["dirty_toilets"]);
    expect(topics("Die Toiletten waren dreckig.", "de")).toEqual(["dirty_toilets"]);
  });

  it("leaves out sentences of a praising review that raise no complaint, not those of a complaint", () => {
    const [praise, complaint] = classify(
      normalize([
        {
          id: "a",
          author: null,
          rating: 5,
          text: "We never had to queue, staff were lovely!",
          language: "en",
          publishedAt: null,
        },
        {
          id: "b",
          author: null,
          rating: 1,
          text: "The queue at the till was endless.",
          language: "en",
          publishedAt: null,
        },
      ]).output,
    ).output;
    expect(topicsOfReview(praise!)).toEqual([]);
    expect(topicsOfReview(complaint!).map((t) => [t.topic, t.category])).toEqual([["long_queue", "waiting_time"]]);
  });

  it("has rules for every topic in every language", () => {
    for (const rules of Object.values(TOPIC_RULES))
      for (const t of TOPICS) expect(rules.topics[t].length, t).toBeGreaterThan(0);
    for (const t of TOPICS) expect(TOPIC_VOCABULARY[t].category).toBeTruthy();
  });
});
