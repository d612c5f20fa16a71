import { CRITICAL_RULES } from "./critical-rules";
import type { ConceptPair, Hazard } from "./critical-types";
import type { Language } from "./language";
import { insideAny, PatternSet, words, type Match } from "./patterns";
import { fold } from "./text";

/** How many tokens before a concept a guard ("no", "luckily", "afraid") takes it back. */
const GUARD_REACH = 6;
/** How far a guard in an earlier clause still reaches ("Bedenken, roh und so"; not "ohne Haube, und obendrauf saßen die Fliegen"). */
const GUARD_REACH_ACROSS = 3;
/** Hearsay words: how far before a concept they reach (any clause), and how far after it. */
const HEARSAY_BEFORE = 8;
const HEARSAY_AFTER = 2;
/** Default distance, in tokens, between the two words of a concept pair. */
const PAIR_REACH = 10;

interface Compiled {
  concepts: PatternSet<Hazard>;
  guards: PatternSet<true>;
  hearsay: PatternSet<true>;
  notGuards: PatternSet<true>;
  exclude: PatternSet<true>;
  /** Both sides of every pair in one set each (the value is the pair's index), so a sentence is scanned twice, not once per pair. */
  pairs: { list: ConceptPair[]; a: PatternSet<number>; b: PatternSet<number> };
  reviewPairs: { list: ConceptPair[]; a: PatternSet<number>; b: PatternSet<number> };
}

const compiled = new Map<Language, Compiled>();
function rulesOf(language: Language): Compiled {
  let c = compiled.get(language);
  if (!c) {
    const rules = CRITICAL_RULES[language];
    const f = (p: string) => fold(p, language);
    const sides = (list: ConceptPair[]) => ({
      list,
      a: new PatternSet(list.flatMap((pair, i) => words(pair.a).map((p) => [f(p), i] as const))),
      b: new PatternSet(list.flatMap((pair, i) => words(pair.b).map((p) => [f(p), i] as const))),
    });
    c = {
      concepts: new PatternSet(
        Object.entries(rules.concepts).flatMap(([hazard, patterns]) =>
          patterns.map((p) => [f(p), hazard as Hazard] as const),
        ),
      ),
      guards: new PatternSet(rules.guards.map((p) => [f(p), true] as const)),
      hearsay: new PatternSet(rules.hearsay.map((p) => [f(p), true] as const)),
      notGuards: new PatternSet(rules.notGuards.map((p) => [f(p), true] as const)),
      exclude: new PatternSet(rules.exclude.map((p) => [f(p), true] as const)),
      pairs: sides(rules.pairs),
      reviewPairs: sides(rules.reviewPairs),
    };
    compiled.set(language, c);
  }
  return c;
}

/** A sentence's folded tokens with the index of the clause each token belongs to (commas, colons, turns). */
export interface SentenceTokens {
  tokens: readonly string[];
  /** clause[i]: the clause of token i; a guard reaches only into its own clause. */
  clause?: readonly number[];
}

const overlaps = (m: Match<unknown>, spans: readonly Match<unknown>[]) =>
  spans.some((x) => m.start < x.end && x.start < m.end);

/** Whether a match is taken back: inside an idiom, denied or feared by a guard before it, or hearsay. */
function guardsOf(s: SentenceTokens, c: Compiled) {
  const not = c.notGuards.all(s.tokens);
  const guards = c.guards.all(s.tokens).filter((g) => !insideAny(g, not));
  const hearsay = c.hearsay.all(s.tokens);
  const excluded = c.exclude.all(s.tokens);
  const sameClause = (i: number, j: number) => !s.clause || s.clause[i] === s.clause[j];
  return (m: Match<unknown>) => {
    if (overlaps(m, excluded)) return true;
    if (
      hearsay.some(
        (h) =>
          (h.start < m.start && m.start - h.start <= HEARSAY_BEFORE) ||
          (h.start >= m.end && h.start - m.end < HEARSAY_AFTER),
      )
    )
      return true;
    return guards.some(
      (g) =>
        g.start < m.start && m.start - g.start <= (sameClause(g.start, m.start) ? GUARD_REACH : GUARD_REACH_ACROSS),
    );
  };
}

function pairHazards(
  s: SentenceTokens,
  sides: Compiled["pairs"],
  takenBack: (m: Match<unknown>) => boolean,
  out: Set<Hazard>,
): void {
  if (sides.list.length === 0) return;
  const as = sides.a.all(s.tokens);
  if (as.length === 0) return;
  const bs = sides.b.all(s.tokens);
  for (const a of as) {
    const pair = sides.list[a.value]!;
    if (out.has(pair.hazard)) continue;
    const guarded = pair.guarded !== false;
    if (guarded && takenBack(a)) continue;
    const reach = pair.within ?? PAIR_REACH;
    // The two sides must be different words; a denied second side ("not a hint of pink") does not count.
    const near = bs.some(
      (b) =>
        b.value === a.value &&
        (b.start >= a.end || b.end <= a.start) &&
        Math.min(Math.abs(b.start - a.end), Math.abs(a.start - b.end)) <= reach &&
        !(guarded && takenBack(b)),
    );
    if (near) out.add(pair.hazard);
  }
}

/**
 * The health-and-safety hazards a sentence reports (folded tokens): illness, vermin, foreign objects,
 * hygiene failures, allergy incidents, injuries; by a concept ("food poisoning", "droppings") or by a
 * pair of words near each other ("chicken" … "pink inside"). A concept with a guard shortly before it
 * in the same clause ("nobody got sick", "no bed bugs", "afraid I'd get food poisoning") does not count.
 */
export function hazardsOf(tokens: readonly string[] | SentenceTokens, language: Language): Hazard[] {
  const s: SentenceTokens = Array.isArray(tokens)
    ? { tokens: tokens as readonly string[] }
    : (tokens as SentenceTokens);
  const c = rulesOf(language);
  const out = new Set<Hazard>();
  const found = c.concepts.all(s.tokens);
  const takenBack = guardsOf(s, c);
  for (const m of found) if (!out.has(m.value) && !takenBack(m)) out.add(m.value);
  pairHazards(s, c.pairs, takenBack, out);
  return [...out];
}

/**
 * The hazards of each sentence of a review: those of the sentence itself, plus the review-level pairs
 * whose two sides sit in different sentences ("I told them about my allergy." … "Ambulance, the lot.");
 * such a hazard is given to the sentence of its first side (the one that names the food or the allergy).
 */
export function reviewHazards(sentences: readonly SentenceTokens[], language: Language): Hazard[][] {
  const c = rulesOf(language);
  const out = sentences.map((s) => hazardsOf(s, language));
  const { list, a, b } = c.reviewPairs;
  if (list.length === 0) return out;
  const firstA = new Map<number, number>();
  const seenB = new Set<number>();
  sentences.forEach((s, i) => {
    const takenBack = guardsOf(s, c);
    for (const m of a.all(s.tokens)) if (!firstA.has(m.value) && !takenBack(m)) firstA.set(m.value, i);
    for (const m of b.all(s.tokens)) if (!takenBack(m)) seenB.add(m.value);
  });
  for (const [pair, sentence] of firstA) {
    const hazard = list[pair]!.hazard;
    if (seenB.has(pair) && !out.some((h) => h.includes(hazard))) out[sentence] = [...out[sentence]!, hazard];
  }
  return out;
}
