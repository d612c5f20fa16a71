import { CRITICAL_RULES, type Hazard } from "./critical-rules";
import type { Language } from "./language";
import { insideAny, PatternSet } from "./patterns";
import { fold } from "./text";

/** How many tokens before a concept a guard ("no", "luckily", "afraid") takes it back. */
const GUARD_REACH = 6;

const compiled = new Map<Language, { concepts: PatternSet<Hazard>; guards: PatternSet<true>; exclude: PatternSet<true> }>();
function rulesOf(language: Language) {
  let c = compiled.get(language);
  if (!c) {
    const rules = CRITICAL_RULES[language];
    const f = (p: string) => fold(p, language);
    c = {
      concepts: new PatternSet(Object.entries(rules.concepts).flatMap(([hazard, patterns]) => patterns.map((p) => [f(p), hazard as Hazard] as const))),
      guards: new PatternSet(rules.guards.map((p) => [f(p), true] as const)),
      exclude: new PatternSet(rules.exclude.map((p) => [f(p), true] as const)),
    };
    compiled.set(language, c);
  }
  return c;
}

/**
 * The health-and-safety hazards a sentence reports (folded tokens): illness, vermin, foreign objects,
 * hygiene failures, allergy incidents, injuries; a concept with a guard shortly before it ("nobody
 * got sick", "no bed bugs", "afraid I'd get food poisoning") does not count.
 */
export function hazardsOf(tokens: readonly string[], language: Language): Hazard[] {
  const { concepts, guards, exclude } = rulesOf(language);
  const found = concepts.all(tokens);
  if (found.length === 0) return [];
  const guarding = guards.all(tokens);
  const excluded = exclude.all(tokens);
  const out = new Set<Hazard>();
  for (const m of found) {
    const guarded = guarding.some((g) => g.start < m.start && m.start - g.start <= GUARD_REACH);
    if (!guarded && !insideAny(m, excluded)) out.add(m.value);
  }
  return [...out];
}
