import { baseLexicon, type BaseLexicon } from "./lexicon/base";
import { DE } from "./lexicon/de";
import { EN } from "./lexicon/en";
import { ES } from "./lexicon/es";
import type { LanguageLexicon } from "./lexicon/types";
import type { DetectedLanguage, Language } from "./language";
import { PatternSet } from "./patterns";
import { fold } from "./text";

export const SENTIMENT_LABELS = ["positive", "neutral", "negative", "mixed"] as const;
export type SentimentLabel = (typeof SENTIMENT_LABELS)[number];

/** How far a negator reaches, and how much of the base lexicon's valence counts next to the domain words. */
const NEGATION_SCOPE = 5;
const INTENSITY_SCOPE = 2;
const BASE_WEIGHT = 0.6;
/** A negated positive word turns negative (a little weaker); a negated negative one turns mildly positive. */
const NEGATED_POSITIVE = -0.8;
const NEGATED_NEGATIVE = -0.3;
/** Clause weights: what follows "but" outweighs what came before it in the sentence; "although" weakens its clause. */
const AFTER_ADVERSATIVE = 1.3;
const BEFORE_ADVERSATIVE = 0.5;
const CONCESSIVE = 0.5;
const EXCLAMATION = 1.2;
/** Spanish absolute superlatives (buenísimo, carísima): the base word, strengthened. */
const SUPERLATIVE = /^(.{2,}?)isim[oa]s?$/;
const SUPERLATIVE_BOOST = 1.6;

interface Compiled {
  exact: Map<string, number>;
  stems: [string, number][];
  memo: Map<string, number | undefined>;
  idioms: PatternSet<number>;
  negators: ReadonlySet<string>;
  intensity: Map<string, number>;
  turns: PatternSet<"adversative" | "concessive">;
  lukewarm: PatternSet<true>;
  base: BaseLexicon;
}

function compile(lex: LanguageLexicon, language: Language): Compiled {
  const f = (w: string) => fold(w, language);
  const exact = new Map<string, number>();
  const stems: [string, number][] = [];
  for (const [word, score] of Object.entries(lex.words)) {
    if (word.endsWith("*")) stems.push([f(word.slice(0, -1)), score]);
    else exact.set(f(word), score);
  }
  stems.sort((a, b) => b[0].length - a[0].length); // the longest stem wins ("unfreundlich" before "freundlich")
  return {
    exact,
    stems,
    memo: new Map(),
    idioms: new PatternSet(Object.entries(lex.idioms).map(([p, v]) => [f(p), v] as const)),
    negators: new Set(lex.negators.map(f)),
    intensity: new Map(Object.entries(lex.intensity).map(([w, m]) => [f(w), m])),
    turns: new PatternSet([
      ...lex.adversative.map((p) => [f(p), "adversative"] as const),
      ...lex.concessive.map((p) => [f(p), "concessive"] as const),
    ]),
    lukewarm: new PatternSet(lex.lukewarm.map((p) => [f(p), true] as const)),
    base: baseLexicon(language),
  };
}

const SOURCES: Record<Language, LanguageLexicon> = { en: EN, es: ES, de: DE };
const compiled = new Map<Language, Compiled>();
function lexiconOf(language: Language): Compiled {
  let c = compiled.get(language);
  if (!c) compiled.set(language, (c = compile(SOURCES[language], language)));
  return c;
}

function domainValence(c: Compiled, token: string): number | undefined {
  const hit = c.exact.get(token);
  if (hit !== undefined) return hit;
  if (c.memo.has(token)) return c.memo.get(token);
  let found: number | undefined;
  for (const [stem, score] of c.stems) {
    if (token.startsWith(stem)) {
      found = score;
      break;
    }
  }
  if (c.memo.size < 200_000) c.memo.set(token, found);
  return found;
}

/** The valence of one folded token: domain vocabulary first, then the base lexicon (weaker). */
export function valenceOf(token: string, language: Language): number {
  const c = lexiconOf(language);
  const domain = domainValence(c, token);
  if (domain !== undefined) return domain;
  if (language === "es") {
    const sup = SUPERLATIVE.exec(token);
    if (sup) {
      const root = sup[1] as string;
      for (const candidate of [
        `${root}o`,
        `${root}a`,
        `${root}e`,
        `${root.replace(/qu$/, "c")}o`,
        `${root.replace(/gu$/, "g")}o`,
        `${root}io`,
        root,
      ]) {
        const v = domainValence(c, candidate) ?? c.base.valence(candidate);
        if (v !== 0) return v * SUPERLATIVE_BOOST;
      }
    }
  }
  return c.base.valence(token) * BASE_WEIGHT;
}

/** One stretch of a sentence between commas or turns ("but", "although"), with its score. */
export interface Segment {
  /** Folded tokens of the segment. */
  tokens: string[];
  /** Sum of the valences (after negation, intensity and idioms), before the segment's weight. */
  raw: number;
  /** Weight of the segment in its review (turns, exclamation). */
  weight: number;
  /** Positive and negative mass of the segment, weighted. */
  pos: number;
  neg: number;
  /** The same masses before the weights of turns (whether a review is mixed does not depend on "but"). */
  rawPos: number;
  rawNeg: number;
}

/** Scores folded tokens: idioms first (their words are used up), then each word with negation and intensity. */
export function scoreFolded(
  tokens: readonly string[],
  language: Language,
): { score: number; pos: number; neg: number } {
  const c = lexiconOf(language);
  const used = new Uint8Array(tokens.length);
  let pos = 0;
  let neg = 0;
  const add = (v: number) => {
    if (v > 0) pos += v;
    else neg -= v;
  };
  const idiomAt = new Map<number, { end: number; value: number }>();
  for (const m of c.idioms.greedy(tokens)) {
    for (let k = m.start; k < m.end; k++) used[k] = 1;
    idiomAt.set(m.start, m);
  }
  // A negator reaches the next scored word or idiom within NEGATION_SCOPE tokens, once.
  let lastNegator = -Infinity;
  for (let i = 0; i < tokens.length; i++) {
    const idiom = idiomAt.get(i);
    if (idiom) {
      let v = idiom.value;
      if (i - lastNegator <= NEGATION_SCOPE) {
        v *= v > 0 ? NEGATED_POSITIVE : NEGATED_NEGATIVE;
        lastNegator = -Infinity;
      }
      add(v);
      continue;
    }
    if (used[i]) continue;
    const token = tokens[i] as string;
    if (c.negators.has(token)) {
      lastNegator = i;
      continue;
    }
    let v = valenceOf(token, language);
    if (v === 0) continue;
    for (let j = i - 1; j >= Math.max(0, i - INTENSITY_SCOPE); j--) {
      const m = c.intensity.get(tokens[j] as string);
      if (m !== undefined) {
        v *= m;
        break;
      }
    }
    if (i - lastNegator <= NEGATION_SCOPE) {
      v *= v > 0 ? NEGATED_POSITIVE : NEGATED_NEGATIVE;
      lastNegator = -Infinity;
    }
    add(v);
  }
  return { score: pos - neg, pos, neg };
}

/**
 * Splits a sentence's clauses further at turns and weighs each part: the parts before an adversative
 * ("but", "pero", "aber") count half, the part after it 1.3 times; a concessive part ("although",
 * "aunque", "obwohl") half; an exclamation 1.2 times. `previousSentence` is weakened (0.7) when this
 * sentence opens with an adversative.
 */
export function scoreSentence(
  clauseTexts: readonly string[],
  rawTokens: (text: string) => string[],
  language: Language,
  exclaims: boolean,
): { segments: Segment[]; opensWithTurn: boolean } {
  const c = lexiconOf(language);
  const parts: { tokens: string[]; turn: "adversative" | "concessive" | null }[] = [];
  for (const clause of clauseTexts) {
    const tokens = rawTokens(clause).map((t) => fold(t, language));
    const turns = c.turns.all(tokens).filter((m, i, all) => i === 0 || m.start >= (all[i - 1] as { end: number }).end);
    let from = 0;
    let turn: "adversative" | "concessive" | null = null;
    for (const m of turns) {
      if (m.start > from) parts.push({ tokens: tokens.slice(from, m.start), turn });
      // The turn's own words stay in the part it opens: "shame", "leider", "lástima" carry a valence.
      turn = m.value;
      from = m.start;
    }
    if (from < tokens.length) parts.push({ tokens: tokens.slice(from), turn });
  }
  const segments: Segment[] = [];
  for (const part of parts) {
    if (part.turn === "adversative") for (const s of segments) s.weight *= BEFORE_ADVERSATIVE;
    const { score, pos, neg } = scoreFolded(part.tokens, language);
    const weight =
      (part.turn === "adversative" ? AFTER_ADVERSATIVE : part.turn === "concessive" ? CONCESSIVE : 1) *
      (exclaims ? EXCLAMATION : 1);
    segments.push({ tokens: part.tokens, raw: score, weight, pos, neg, rawPos: pos, rawNeg: neg });
  }
  for (const s of segments) {
    s.pos *= s.weight;
    s.neg *= s.weight;
  }
  return { segments, opensWithTurn: parts[0]?.turn === "adversative" };
}

/** How many lukewarm verdicts ("nothing special", "ni fu ni fa") the folded tokens hold. */
export function lukewarmVerdicts(tokens: readonly string[], language: Language): number {
  return lexiconOf(language).lukewarm.greedy(tokens).length;
}

/** VADER's normalisation of a valence sum into -1..1 (alpha 15). */
export function compound(sum: number): number {
  return Math.round((sum / Math.sqrt(sum * sum + 15)) * 1000) / 1000;
}

/** Polarity of a score: positive at +1 or more, negative at -1 or less, neutral in between. */
export function polarityOf(sum: number): "positive" | "neutral" | "negative" {
  if (sum >= 1) return "positive";
  if (sum <= -1) return "negative";
  return "neutral";
}

/** Sum of the valences of already-tokenized text (tests and callers that do not need segments). */
export function scoreTokens(tokens: readonly string[], language: DetectedLanguage): number {
  if (language === "unknown") return 0;
  return scoreFolded(
    tokens.map((t) => fold(t, language)),
    language,
  ).score;
}
