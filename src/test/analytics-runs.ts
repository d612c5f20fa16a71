import { languagesOf, loadSplit } from "@/server/pipelines/review-analytics/eval/dataset";
import type { RawReview } from "@/server/pipelines/review-analytics/model";

/**
 * The labelled reviews of the dev split (realistic texts in every language), dated across 2026: the
 * raw material of the report's property tests (invariants, languages).
 */
export const labelledDevReviews: RawReview[] = languagesOf("dev").flatMap((l) =>
  loadSplit("dev", l).map((r, i) => ({
    id: r.id,
    author: null,
    rating: r.rating,
    text: r.text,
    language: null,
    publishedAt: new Date(Date.UTC(2026, i % 12, 1 + (i % 28), i % 24)),
  })),
);

/** A small deterministic PRNG, so a failing case can be replayed from its seed. */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
