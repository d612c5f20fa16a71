import { z } from "zod";
import type { DemoReview } from "./generate";

export const SORTS = ["newest", "relevant", "highest", "lowest"] as const;
export type TSort = (typeof SORTS)[number];

/** Query of a reviews page, as both the JSON API and the HTML fragments accept it. */
export const ZReviewsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  sort: z.enum(SORTS).default("newest"),
  since: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), { error: "must be an ISO date" })
    .transform((v) => new Date(v))
    .optional(),
  lang: z
    .string()
    .regex(/^[a-z]{2}$/, { error: "must be a two-letter language code" })
    .optional(),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
});
export type TReviewsQuery = z.output<typeof ZReviewsQuery>;

/** Relevance: helpful votes first, then longer texts, then strong opinions. */
function relevance(r: DemoReview): number {
  return r.helpful * 3 + (r.text?.length ?? 0) / 40 + Math.abs(r.rating - 3);
}

const byNewest = (a: DemoReview, b: DemoReview) =>
  b.publishedAt.getTime() - a.publishedAt.getTime() || (a.id < b.id ? 1 : -1);

/** Filters by since and language and orders by the sort; every order is total (ties by date, then id). */
export function selectReviews(
  reviews: DemoReview[],
  query: Pick<TReviewsQuery, "sort" | "since" | "lang">,
): DemoReview[] {
  const since = query.since?.getTime();
  const selected = reviews.filter(
    (r) =>
      (since === undefined || r.publishedAt.getTime() >= since) &&
      (query.lang === undefined || r.language === query.lang),
  );
  const order: Record<TSort, (a: DemoReview, b: DemoReview) => number> = {
    newest: byNewest,
    highest: (a, b) => b.rating - a.rating || byNewest(a, b),
    lowest: (a, b) => a.rating - b.rating || byNewest(a, b),
    relevant: (a, b) => relevance(b) - relevance(a) || byNewest(a, b),
  };
  return selected.sort(order[query.sort]);
}

export interface ReviewsPage {
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
  nextPage: number | null;
  reviews: DemoReview[];
}

/** One page of the selected reviews (pages past the end are empty, not errors). */
export function pageOf(selected: DemoReview[], page: number, perPage: number): ReviewsPage {
  const totalPages = Math.ceil(selected.length / perPage);
  return {
    page,
    perPage,
    total: selected.length,
    totalPages,
    nextPage: page < totalPages ? page + 1 : null,
    reviews: selected.slice((page - 1) * perPage, page * perPage),
  };
}
