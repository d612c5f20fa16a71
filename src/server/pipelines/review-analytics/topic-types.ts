import type { Topic } from "./topic-vocabulary";

/**
 * A language's complaint-topic rules (topics.ts). Each rule of a topic is either
 *
 * - a list of phrases separated by `|` ("overcooked|burnt|dried out"): the topic, where one matches; or
 * - a cue list and a head list, `cue ~ head` ("cold|lukewarm ~ food|soup|pizza"): the topic where a cue
 *   and a head (different words) sit within HEAD_REACH tokens of each other in the same part of a
 *   sentence (parts end at the language's `turns`, "but", "pero", "aber"). A cue word goes to the topic
 *   of its nearest head: "cold" is cold food next to "soup" and a cold room next to "dining room".
 *
 * A phrase is a patterns.ts pattern (written unfolded: `*` a stem, `_` any one word, `_?` one or none),
 * and `[a/b c/d]` stands for each of its alternatives ("[no/little] [flavour/taste]": four phrases).
 * A match with one of the `negators` in the two words before it does not count ("no queue", "nicht
 * kalt"); nor does a match inside one of the topic's `exclude` phrases ("ice cold beer", "time flies").
 */
export interface TopicRules {
  turns: string[];
  negators: string[];
  topics: Record<Topic, string[]>;
  exclude: Partial<Record<Topic, string[]>>;
}
