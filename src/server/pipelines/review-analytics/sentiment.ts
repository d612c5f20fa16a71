import { DE_BOOSTERS, DE_LEXICON, DE_NEGATORS } from "./lexicon/de";
import { EN_BOOSTERS, EN_LEXICON, EN_NEGATORS } from "./lexicon/en";
import { ES_BOOSTERS, ES_LEXICON, ES_NEGATORS } from "./lexicon/es";
import type { DetectedLanguage, Language } from "./language";

export type SentimentLabel = "positive" | "neutral" | "negative";

interface Lexicon {
  exact: Map<string, number>;
  stems: [string, number][];
  negators: ReadonlySet<string>;
  boosters: ReadonlySet<string>;
  /** Memo of stem lookups: the vocabulary of reviews is small next to their number. */
  memo: Map<string, number>;
}

function build(words: Record<string, number>, negators: ReadonlySet<string>, boosters: ReadonlySet<string>): Lexicon {
  const exact = new Map<string, number>();
  const stems: [string, number][] = [];
  for (const [word, score] of Object.entries(words)) {
    if (word.endsWith("*")) stems.push([word.slice(0, -1), score]);
    else exact.set(word, score);
  }
  stems.sort((a, b) => b[0].length - a[0].length); // the longest stem wins ("unfreundlich" before "freundlich")
  return { exact, stems, negators, boosters, memo: new Map() };
}

const LEXICONS: Record<Language, Lexicon> = {
  en: build(EN_LEXICON, EN_NEGATORS, EN_BOOSTERS),
  es: build(ES_LEXICON, ES_NEGATORS, ES_BOOSTERS),
  de: build(DE_LEXICON, DE_NEGATORS, DE_BOOSTERS),
};

function valence(lex: Lexicon, token: string): number {
  const hit = lex.exact.get(token);
  if (hit !== undefined) return hit;
  let memo = lex.memo.get(token);
  if (memo === undefined) {
    memo = 0;
    for (const [stem, score] of lex.stems) {
      if (token.startsWith(stem)) {
        memo = score;
        break;
      }
    }
    if (lex.memo.size < 200_000) lex.memo.set(token, memo);
  }
  return memo;
}

/**
 * Sum of the valences of the tokens: a negator within the three tokens before a word flips it, a
 * booster right before it multiplies it by 1.5. Unknown languages score 0 (neutral).
 */
export function scoreTokens(tokens: readonly string[], language: DetectedLanguage): number {
  if (language === "unknown") return 0;
  const lex = LEXICONS[language];
  let sum = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    let v = valence(lex, token);
    if (v === 0) continue;
    if (i > 0 && lex.boosters.has(tokens[i - 1] as string)) v *= 1.5;
    for (let j = Math.max(0, i - 3); j < i; j++) {
      if (lex.negators.has(tokens[j] as string)) {
        v = -v;
        break;
      }
    }
    sum += v;
  }
  return sum;
}

/** VADER's normalisation of a valence sum into -1..1 (alpha 15). */
export function compound(sum: number): number {
  return Math.round((sum / Math.sqrt(sum * sum + 15)) * 1000) / 1000;
}

/** positive at a sum of +1 or more, negative at -1 or less, neutral in between. */
export function labelOf(sum: number): SentimentLabel {
  if (sum >= 1) return "positive";
  if (sum <= -1) return "negative";
  return "neutral";
}
