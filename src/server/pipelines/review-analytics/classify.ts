import type { ClassifiedReview, Mention, NormalizedReview } from "./model";
import { compound, labelOf, scoreTokens, type SentimentLabel } from "./sentiment";
import { categoriesOf, isCritical } from "./taxonomy";
import type { StageResult } from "../types";

/** A sentence with no sentiment word takes its polarity from the star rating (1-2 negative, 4-5 positive). */
function ratingPolarity(rating: number | null): SentimentLabel {
  if (rating === null || rating === 3) return "neutral";
  return rating <= 2 ? "negative" : "positive";
}

/**
 * Stage 2: sentiment of each text from the language's lexicon, and the categories each sentence
 * mentions (taxonomy rules of that language) with the sentence's own polarity.
 */
export function classify(reviews: readonly NormalizedReview[]): StageResult<ClassifiedReview[]> {
  const out: ClassifiedReview[] = [];
  for (const r of reviews) {
    // The text's score is the sum of its sentences' scores (a negator does not reach across a full stop).
    let sentiment = 0;
    const mentions: Mention[] = [];
    let critical = false;
    if (r.language !== "unknown" && r.text) {
      for (const { text: sentence, tokens } of r.sentences) {
        const score = scoreTokens(tokens, r.language);
        sentiment += score;
        const cats = categoriesOf(tokens, r.language);
        if (!cats.length) continue;
        const sentenceCritical = isCritical(tokens, r.language);
        critical ||= sentenceCritical;
        // A health-and-safety sentence is negative whatever its words score.
        const polarity = sentenceCritical ? "negative" : score === 0 ? ratingPolarity(r.rating) : labelOf(score);
        for (const category of cats) mentions.push({ category, polarity, score, sentence, critical: sentenceCritical });
      }
    }
    out.push({ ...r, sentiment, compound: compound(sentiment), label: labelOf(sentiment), mentions, critical });
  }
  const untagged = out.filter((r) => r.text && r.mentions.length === 0).length;
  return { output: out, itemsOut: out.length, warnings: untagged ? [`${untagged} texts matched no category`] : [] };
}
