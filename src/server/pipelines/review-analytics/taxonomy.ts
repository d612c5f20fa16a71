import { CATEGORY_RULES } from "./categories";
import type { Language } from "./language";
import { insideAny, PatternSet } from "./patterns";
import { fold } from "./text";

/**
 * The category taxonomy of review-analytics (docs/pipelines.md, "Taxonomy"). The rules of each
 * language are in categories.ts; a stretch of text belongs to every category one of whose rules it
 * contains outside the category exclusions.
 */
export const CATEGORIES = ["food", "service", "price", "cleanliness", "waiting_time", "ambience"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The team that owns the issues of each category (route stage). */
export const OWNER_TEAMS: Record<Category, string> = {
  food: "kitchen",
  service: "front_of_house",
  price: "management",
  cleanliness: "facilities",
  waiting_time: "operations",
  ambience: "facilities",
};

const compiled = new Map<Language, { include: PatternSet<Category>; exclude: PatternSet<Category> }>();
function rulesOf(language: Language) {
  let c = compiled.get(language);
  if (!c) {
    const f = (p: string) => fold(p, language);
    const rules = CATEGORY_RULES[language];
    c = {
      include: new PatternSet(
        CATEGORIES.flatMap((category) => rules[category].include.map((p) => [f(p), category] as const)),
      ),
      exclude: new PatternSet(
        CATEGORIES.flatMap((category) => rules[category].exclude.map((p) => [f(p), category] as const)),
      ),
    };
    compiled.set(language, c);
  }
  return c;
}

/**
 * The categories a stretch of text mentions (folded tokens), in taxonomy order. A match inside an
 * exclusion span of its category ("can't wait to come back" for waiting, "fast food" for waiting)
 * does not count.
 */
export function categoriesOf(tokens: readonly string[], language: Language): Category[] {
  const { include, exclude } = rulesOf(language);
  const matches = include.all(tokens);
  if (matches.length === 0) return [];
  const excluded = exclude.all(tokens);
  const found = new Set<Category>();
  for (const m of matches)
    if (
      !insideAny(
        m,
        excluded.filter((x) => x.value === m.value),
      )
    )
      found.add(m.value);
  return CATEGORIES.filter((c) => found.has(c));
}
