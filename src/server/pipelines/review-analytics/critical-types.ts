/** The kinds of health-and-safety problem the critical flag stands for (eval/GUIDE.md, "Critical"). */
export const HAZARDS = ["illness", "vermin", "foreign_object", "hygiene", "allergy", "injury"] as const;
export type Hazard = (typeof HAZARDS)[number];

/**
 * Two kinds of words that report a hazard only together, near each other in a sentence: a thing and
 * what was wrong with it ("chicken" … "pink inside", "loo" … "all night", "sheets" … "stains", "tail"
 * … "ran"). `a` and `b` are `|`-separated lists of patterns; `within`: most tokens between the two
 * (default 10); `guarded: false` when a guard before `a` is not a denial ("no salió del baño").
 */
export interface ConceptPair {
  hazard: Hazard;
  a: string;
  b: string;
  within?: number;
  guarded?: boolean;
}

/**
 * A language's health-and-safety rules. `concepts`: many phrasings of each hazard (patterns.ts syntax,
 * unfolded). `guards`: words that, within the six tokens before a concept, say it did not happen or was
 * only feared ("luckily nobody got sick", "no bed bugs", "tenía miedo de pillar algo", "kein
 * Magengrummeln"). `exclude`: idioms in which a concept's words mean something else ("sick of waiting",
 * "bicho raro", "Haare auf den Zähnen", "zum Kotzen laut"); a concept inside one does not count.
 */
export interface CriticalRules {
  concepts: Record<Hazard, string[]>;
  /** Sentence-level pairs (ConceptPair). */
  pairs: ConceptPair[];
  /** Pairs that may sit in different sentences of one review ("I told them about my allergy." … "Ambulance."). */
  reviewPairs: ConceptPair[];
  guards: string[];
  /**
   * Words that make a hazard hearsay ("I read reviews about rats", "die Bettwanzen-Geschichten"): they take
   * back a concept anywhere shortly before it in the sentence, commas or not, and right after it.
   */
  hearsay: string[];
  /** Phrases that begin with a guard's word without denying anything ("nada más salir", "ni una disculpa"). */
  notGuards: string[];
  exclude: string[];
}
