/** The sentiment resources of one language (docs/pipelines.md, "Sentiment"). Every word is folded (text.ts `fold`). */
export interface LanguageLexicon {
  /** Domain valences from -5 to +5 (AFINN scale); a trailing * matches a stem. They override the base lexicon. */
  words: Record<string, number>;
  /** Set phrases and idioms (patterns.ts syntax) with their valence; their words are not scored again. */
  idioms: Record<string, number>;
  /** Words that negate the scored words after them in their clause (at most three tokens on). */
  negators: readonly string[];
  /** Words that scale the next scored word (up to two tokens on): boosters above 1, diminishers below. */
  intensity: Record<string, number>;
  /** Words or phrases (patterns) opening a clause that outweighs what came before it ("but"). */
  adversative: readonly string[];
  /** Words or phrases (patterns) opening a clause that weighs less than the rest of the sentence ("although"). */
  concessive: readonly string[];
  /**
   * Verdicts of a lukewarm or average experience ("nothing special", "ni fu ni fa", "kann man machen"):
   * a review that gives one and no strong opinion elsewhere is neutral, whatever its stars.
   */
  lukewarm: readonly string[];
}
