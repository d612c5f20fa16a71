import { categoriesOf } from "./categories";
import { hazardsOf, type SentenceTokens } from "./critical";
import type { Hazard } from "./critical-types";
import type { Language } from "./language";
import type { ClassifiedReview } from "./model";
import { PatternSet, type Match } from "./patterns";
import type { Category } from "./taxonomy";
import { TOPIC_RULES_DE } from "./topic-rules-de";
import { TOPIC_RULES_EN } from "./topic-rules-en";
import { TOPIC_RULES_ES } from "./topic-rules-es";
import type { TopicRules } from "./topic-types";
import { TOPIC_VOCABULARY, TOPICS, type Topic } from "./topic-vocabulary";
import { fold, tokenize } from "./text";

// Complaint topics (docs/pipelines.md, "Topics"): the canonical topics of topic-vocabulary.ts that a
// review's sentences complain about, found by each language's aspect terms and patterns
// (topic-rules-*.ts) and by the health-and-safety detector (critical.ts) for illness, foreign
// objects and vermin.

export const TOPIC_RULES: Record<Language, TopicRules> = { en: TOPIC_RULES_EN, es: TOPIC_RULES_ES, de: TOPIC_RULES_DE };

/** Most tokens between a cue and its head ("cold" … "soup"). */
const HEAD_REACH = 8;
/** How many words before a match a negator takes it back ("no queue", "not cold at all"). */
const NEGATOR_REACH = 2;
/** The topic a hazard of the critical detector stands for. */
const HAZARD_TOPICS: Partial<Record<Hazard, Topic>> = {
  illness: "food_poisoning",
  foreign_object: "foreign_object",
  vermin: "pests",
};

/** The phrases a rule side stands for: `|`-separated, each `[a/b]` group expanded, hyphens as spaces (as tokenize splits them). */
export function expandPhrases(list: string): string[] {
  const out: string[] = [];
  for (const alt of list.split("|")) {
    const trimmed = alt.trim().replace(/-/g, " ");
    if (!trimmed) continue;
    let variants = [""];
    for (const piece of trimmed.split(/(\[[^\]]*\])/)) {
      const options = piece.startsWith("[") ? piece.slice(1, -1).split("/") : [piece];
      variants = variants.flatMap((v) => options.map((o) => v + o));
    }
    out.push(...variants.map((v) => v.replace(/\s+/g, " ").trim()).filter(Boolean));
  }
  return out;
}

interface CompiledTopics {
  direct: PatternSet<Topic>;
  /** Cues and heads; the value is the index of the rule in `ruleTopics`. */
  cues: PatternSet<number>;
  heads: PatternSet<number>;
  ruleTopics: Topic[];
  exclude: PatternSet<Topic>;
  negators: PatternSet<true>;
  turns: ReadonlySet<string>;
}

const compiled = new Map<Language, CompiledTopics>();
function compiledOf(language: Language): CompiledTopics {
  let c = compiled.get(language);
  if (c) return c;
  const rules = TOPIC_RULES[language];
  const f = (p: string) => fold(p.toLowerCase(), language);
  const direct: [string, Topic][] = [];
  const cues: [string, number][] = [];
  const heads: [string, number][] = [];
  const ruleTopics: Topic[] = [];
  for (const topic of TOPICS)
    for (const rule of rules.topics[topic]) {
      const [cue, head, extra] = rule.split(" ~ ");
      if (extra !== undefined) throw new Error(`topic rule of ${topic} has more than one ~: ${rule}`);
      if (head === undefined) {
        for (const p of expandPhrases(cue!)) direct.push([f(p), topic]);
        continue;
      }
      const index = ruleTopics.push(topic) - 1;
      for (const p of expandPhrases(cue!)) cues.push([f(p), index]);
      for (const p of expandPhrases(head)) heads.push([f(p), index]);
    }
  c = {
    direct: new PatternSet(direct),
    cues: new PatternSet(cues),
    heads: new PatternSet(heads),
    ruleTopics,
    exclude: new PatternSet(
      TOPICS.flatMap((t) => (rules.exclude[t] ?? []).flatMap((r) => expandPhrases(r).map((p) => [f(p), t] as const))),
    ),
    negators: new PatternSet(rules.negators.map((n) => [f(n), true] as const)),
    turns: new Set(rules.turns.map((t) => f(t))),
  };
  compiled.set(language, c);
  return c;
}

/** A sentence's folded tokens with the part each belongs to (a new part after each turn word or semicolon). */
function partsOf(sentence: string, language: Language): { tokens: string[]; part: number[] } {
  const c = compiledOf(language);
  const tokens: string[] = [];
  const part: number[] = [];
  let p = 0;
  for (const piece of sentence.split(/;/)) {
    for (const t of tokenize(piece)) {
      const w = fold(t, language);
      if (c.turns.has(w) && tokens.length > 0) p++;
      tokens.push(w);
      part.push(p);
    }
    p++;
  }
  return { tokens, part };
}

/** A topic found in a sentence, with the words that name it. */
export interface TopicHit {
  topic: Topic;
  /** The words of the match as written in the folded sentence ("cold" … "soup"). */
  words: string;
}

/**
 * The complaint topics a sentence names (its text and language), each once, in vocabulary order.
 * Polarity is not judged here: topicsOfReview leaves out sentences that only praise.
 */
export function topicsOfSentence(sentence: string, language: Language): TopicHit[] {
  const c = compiledOf(language);
  const { tokens, part } = partsOf(sentence, language);
  if (tokens.length === 0) return [];
  const negators = c.negators.all(tokens);
  const excluded = c.exclude.all(tokens);
  const negated = (m: Match<unknown>) =>
    negators.some((n) => n.end <= m.start && m.start - n.end < NEGATOR_REACH && part[n.start] === part[m.start]);
  const inExclusion = (m: Match<unknown>, topic: Topic) =>
    excluded.some((x) => x.value === topic && m.start < x.end && x.start < m.end);
  const found = new Map<Topic, string>();
  const text = (m: Match<unknown>) => tokens.slice(m.start, m.end).join(" ");
  for (const m of c.direct.all(tokens))
    if (!found.has(m.value) && !negated(m) && !inExclusion(m, m.value)) found.set(m.value, text(m));
  const heads = c.heads.all(tokens);
  if (heads.length) {
    // Each cue goes to the topic of its nearest head (ties: vocabulary order).
    const byCue = new Map<string, { topic: Topic; distance: number; words: string }[]>();
    for (const cue of c.cues.all(tokens)) {
      const topic = c.ruleTopics[cue.value]!;
      if (negated(cue) || inExclusion(cue, topic)) continue;
      for (const h of heads) {
        if (h.value !== cue.value || part[h.start] !== part[cue.start]) continue;
        if (h.start < cue.end && cue.start < h.end) continue;
        const distance = h.start >= cue.end ? h.start - cue.end : cue.start - h.end;
        if (distance > HEAD_REACH) continue;
        const key = `${cue.start}`;
        const list = byCue.get(key) ?? [];
        const words = h.start >= cue.end ? `${text(cue)} … ${text(h)}` : `${text(h)} … ${text(cue)}`;
        list.push({ topic, distance, words });
        byCue.set(key, list);
      }
    }
    for (const list of byCue.values()) {
      const nearest = Math.min(...list.map((x) => x.distance));
      for (const x of list) if (x.distance === nearest && !found.has(x.topic)) found.set(x.topic, x.words);
    }
  }
  const sentenceTokens: SentenceTokens = { tokens, clause: part };
  const hazards = hazardsOf(sentenceTokens, language);
  // As in classify: a sentence reporting a hazard is about the hazard; its minutes and hours are how
  // soon it struck ("vomiting within the hour"), its rooms where it was, not waits or the room's comfort.
  if (hazards.length)
    for (const t of [...found.keys()]) {
      const category = TOPIC_VOCABULARY[t].category;
      if (category === "waiting_time" || category === "ambience") found.delete(t);
    }
  for (const hazard of hazards) {
    const topic = HAZARD_TOPICS[hazard];
    // A foreign object is a food topic only in a sentence about food (a hair on the sheets is a dirty room).
    if (topic === "foreign_object" && !categoriesOf(tokens, language).includes("food")) continue;
    if (topic && !found.has(topic)) found.set(topic, hazard);
  }
  return TOPICS.filter((t) => found.has(t)).map((t) => ({ topic: t, words: found.get(t)! }));
}

/** A sentence of a review that complains about a topic. */
export interface TopicMention {
  topic: Topic;
  category: Category;
  sentence: string;
  /** The sentence's most negative mention score (0 when it has none): the most telling quotes first. */
  score: number;
}

/**
 * The complaint topics of a classified review, sentence by sentence. The rules name complaints (and
 * negators and exclusions take back denials and idioms), so every sentence counts, except in a review
 * that praises overall (a positive label with 4 or 5 stars, or none): there a sentence counts only
 * when the classifier found a negative mention in it.
 */
export function topicsOfReview(
  r: Pick<ClassifiedReview, "language" | "text" | "sentences" | "mentions" | "label" | "rating">,
): TopicMention[] {
  // The aggregate and the evidence labels read the same review objects: find their topics once.
  let out = byReview.get(r);
  if (!out) byReview.set(r, (out = findTopics(r)));
  return out;
}

const byReview = new WeakMap<object, TopicMention[]>();

function findTopics(
  r: Pick<ClassifiedReview, "language" | "text" | "sentences" | "mentions" | "label" | "rating">,
): TopicMention[] {
  if (r.language === "unknown" || !r.text) return [];
  const out: TopicMention[] = [];
  for (const s of r.sentences) {
    const mentions = r.mentions.filter((m) => m.sentence === s.text);
    const praising = r.label === "positive" && (r.rating === null || r.rating >= 4);
    if (praising && !mentions.some((m) => m.polarity === "negative")) continue;
    const hits = topicsOfSentence(s.text, r.language);
    if (!hits.length) continue;
    const score = Math.min(0, ...mentions.map((m) => m.score));
    for (const h of hits)
      out.push({ topic: h.topic, category: TOPIC_VOCABULARY[h.topic].category, sentence: s.text, score });
  }
  return out;
}
