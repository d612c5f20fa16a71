import type { ClassifiedReview, Issue, RoutedReviews, Severity } from "./model";
import { OWNER_TEAMS } from "./taxonomy";
import { excerpt } from "./text";
import type { StageResult } from "../types";

/**
 * Severity of a negative mention: critical for a health-and-safety phrase; high for a 1-star review
 * or a very negative text (compound <= -0.6); medium for 2 stars or compound <= -0.3; low otherwise.
 */
export function severityOf(review: Pick<ClassifiedReview, "rating" | "compound">, critical: boolean): Severity {
  if (critical) return "critical";
  if (review.rating === 1 || review.compound <= -0.6) return "high";
  if (review.rating === 2 || review.compound <= -0.3) return "medium";
  return "low";
}

/** Stage 3: one issue per negative category mention (the first per category and review), routed to the category's owner team. */
export function route(reviews: readonly ClassifiedReview[]): StageResult<RoutedReviews> {
  const issues: Issue[] = [];
  for (const r of reviews) {
    const seen = new Set<string>();
    for (const m of r.mentions) {
      if (m.polarity !== "negative" || seen.has(m.category)) continue;
      seen.add(m.category);
      issues.push({
        review_id: r.id,
        category: m.category,
        team: OWNER_TEAMS[m.category],
        severity: severityOf(r, m.critical),
        excerpt: excerpt(m.sentence),
        rating: r.rating,
        score: m.score,
        published_at: r.publishedAt ? r.publishedAt.toISOString() : null,
      });
    }
  }
  return { output: { reviews: [...reviews], issues }, itemsOut: issues.length };
}
