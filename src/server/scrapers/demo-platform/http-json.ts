import { z } from "zod";
import { classifyError, errorForStatus, throwIfAborted } from "../classify";
import { ScrapeError, type ScrapedReview, type Scraper } from "../types";
import { applyTarget, resolveTarget, targetParams } from "./target";

/** One page of the platform's JSON reviews API; a different shape means the API changed (layout_changed). */
const ZReviewsPage = z.object({
  place: z.object({ id: z.string(), name: z.string() }),
  nextPage: z.number().int().nullable(),
  reviews: z.array(
    z.object({
      id: z.string().min(1),
      author: z.string().nullable(),
      rating: z.number().min(0).max(5).nullable(),
      text: z.string().nullable(),
      language: z.string().nullable(),
      publishedAt: z.string().nullable(),
      ownerReply: z.string().nullable(),
    }),
  ),
});

const MAX_PER_PAGE = 100;

/** Reads the platform's paged JSON API (`/api/places/<id>/reviews`) with fetch; no browser. */
export const httpJsonScraper: Scraper = {
  implementation: "http-json",
  async scrape(target, ctx) {
    const place = resolveTarget(target, ctx);
    const perPage = Math.min(MAX_PER_PAGE, Math.max(1, target.limit));
    const collected: ScrapedReview[] = [];
    let placeName: string | undefined;
    let page: number | null = 1;
    try {
      while (page !== null && collected.length < target.limit) {
        throwIfAborted(ctx.signal);
        const params = targetParams(target, place.knobs);
        params.set("page", String(page));
        params.set("per_page", String(perPage));
        const url = `${place.origin}/api/places/${encodeURIComponent(place.placeId)}/reviews?${params}`;
        const res = await fetch(url, { signal: ctx.signal, headers: { accept: "application/json" } });
        const failure = errorForStatus(res.status, `GET reviews page ${page}`, res.headers.get("retry-after"));
        if (failure) {
          await res.body?.cancel();
          throw failure;
        }
        const body = ZReviewsPage.safeParse(await res.json().catch(() => undefined));
        if (!body.success) throw new ScrapeError("layout_changed", `reviews API page ${page} has an unexpected shape`, { cause: body.error });
        placeName = body.data.place.name;
        for (const r of body.data.reviews) {
          const publishedAt = r.publishedAt === null ? null : new Date(r.publishedAt);
          collected.push({
            externalId: r.id,
            author: r.author,
            rating: r.rating,
            text: r.text,
            language: r.language,
            publishedAt: publishedAt && !Number.isNaN(publishedAt.getTime()) ? publishedAt : null,
            ownerReply: r.ownerReply,
          });
        }
        ctx.onProgress?.(Math.min(collected.length, target.limit));
        page = body.data.reviews.length === 0 ? null : body.data.nextPage;
      }
    } catch (error) {
      throw classifyError(error, ctx.signal);
    }
    return { placeKey: place.placeKey, platformId: place.placeId, placeName, reviews: applyTarget(collected, target) };
  },
};
