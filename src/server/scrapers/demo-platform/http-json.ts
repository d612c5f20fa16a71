import { z } from "zod";
import { classifyError, errorForStatus, throwIfAborted } from "../classify";
import { scraperConfig } from "../config";
import { parseReviewDate } from "../browser/parse";
import { platformFetch } from "../platform-fetch";
import { linkOnOrigin } from "../platform-origin";
import { ScrapeError, stopReasonOf, type PlaceFacts, type ScrapedReview, type Scraper } from "../types";
import { applyTarget, cutAtKnown, resolveTarget, targetParams } from "./target";

/** One page of the platform's JSON reviews API; a different shape means the API changed (layout_changed). */
const ZReviewsPage = z.object({
  place: z.object({
    id: z.string(),
    name: z.string(),
    // Facts a platform may leave out (older API versions): read when present.
    address: z.string().optional(),
    rating: z.number().min(0).max(5).optional(),
    reviewCount: z.number().int().min(0).optional(),
    histogram: z.record(z.enum(["1", "2", "3", "4", "5"]), z.number().int().min(0)).optional(),
  }),
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
      // Fields an older API version may lack.
      ownerReplyAt: z.string().nullable().optional(),
      helpful: z.number().int().min(0).nullable().optional(),
      photos: z.array(z.string().max(2000)).max(50).optional(),
      reviewer: z
        .object({ url: z.string().max(2000), reviewCount: z.number().int().min(0).nullable() })
        .nullable()
        .optional(),
      editedAt: z.string().nullable().optional(),
      translation: z
        .object({ language: z.string().max(10), text: z.string() })
        .nullable()
        .optional(),
    }),
  ),
});

const MAX_PER_PAGE = 100;

/** Reads the platform's paged JSON API (`/api/places/<id>/reviews`) on the platform's origin only; no browser. */
export const httpJsonScraper: Scraper = {
  implementation: "http-json",
  async scrape(target, ctx) {
    const place = resolveTarget(target, ctx);
    const perPage = Math.min(MAX_PER_PAGE, Math.max(1, target.limit));
    const collected: ScrapedReview[] = [];
    let placeName: string | undefined;
    let facts: PlaceFacts | undefined;
    let page: number | null = 1;
    try {
      while (page !== null && collected.length < target.limit) {
        throwIfAborted(ctx.signal);
        const params = targetParams(target, place.knobs);
        params.set("page", String(page));
        params.set("per_page", String(perPage));
        const url = new URL(`${place.origin}/api/places/${encodeURIComponent(place.placeId)}/reviews?${params}`);
        const { response: res } = await platformFetch(url, {
          origin: place.origin,
          signal: ctx.signal,
          deadlineMs: scraperConfig().SCRAPER_NAVIGATION_TIMEOUT_MS,
          headers: { accept: "application/json" },
        });
        const retryAfter = res.headers["retry-after"];
        const failure = errorForStatus(
          res.status,
          `GET reviews page ${page}`,
          typeof retryAfter === "string" ? retryAfter : null,
        );
        if (failure) throw failure;
        const body = ZReviewsPage.safeParse(parseJson(res.body));
        if (!body.success)
          throw new ScrapeError("layout_changed", `reviews API page ${page} has an unexpected shape`, {
            cause: body.error,
          });
        placeName = body.data.place.name;
        facts ??= factsOf(body.data.place);
        for (const r of body.data.reviews) {
          collected.push({
            externalId: r.id,
            author: r.author,
            rating: r.rating,
            text: r.text,
            language: r.language,
            publishedAt: parseReviewDate(r.publishedAt),
            ownerReply: r.ownerReply,
            datePrecision: "exact",
            ...(r.ownerReplyAt !== undefined ? { ownerReplyAt: parseReviewDate(r.ownerReplyAt) } : {}),
            ...(r.helpful !== undefined ? { helpful: r.helpful } : {}),
            ...(r.photos !== undefined
              ? { photos: r.photos.map((p) => linkOnOrigin(p, place.origin)).filter((u): u is string => u !== null) }
              : {}),
            ...(r.reviewer !== undefined
              ? {
                  reviewerUrl: r.reviewer ? linkOnOrigin(r.reviewer.url, place.origin) : null,
                  reviewerReviewCount: r.reviewer?.reviewCount ?? null,
                }
              : {}),
            ...(r.editedAt !== undefined ? { editedAt: parseReviewDate(r.editedAt) } : {}),
            ...(r.translation !== undefined
              ? { translatedText: r.translation?.text ?? null, translatedLanguage: r.translation?.language ?? null }
              : {}),
          });
        }
        ctx.onProgress?.(Math.min(collected.length, target.limit));
        if (ctx.onReviews)
          ctx.onReviews({
            origin: place.origin,
            placeKey: place.placeKey,
            platformId: place.placeId,
            placeName,
            reviews: applyTarget(collected, target),
          });
        const cut = await cutAtKnown(ctx, place, applyTarget(collected, target));
        if (cut)
          return {
            origin: place.origin,
            placeKey: place.placeKey,
            platformId: place.placeId,
            placeName,
            facts,
            stopReason: "known_reached",
            reviews: cut,
          };
        page = body.data.reviews.length === 0 ? null : body.data.nextPage;
      }
    } catch (error) {
      throw classifyError(error, ctx.signal);
    }
    const reviews = applyTarget(collected, target);
    return {
      origin: place.origin,
      placeKey: place.placeKey,
      platformId: place.placeId,
      placeName,
      facts,
      stopReason: stopReasonOf(reviews.length, target),
      reviews,
    };
  },
};

function factsOf(p: z.output<typeof ZReviewsPage>["place"]): PlaceFacts {
  const h = p.histogram;
  return {
    name: p.name,
    ...(p.address !== undefined ? { address: p.address } : {}),
    ...(p.rating !== undefined ? { rating: p.rating } : {}),
    ...(p.reviewCount !== undefined ? { reviewCount: p.reviewCount } : {}),
    ...(h ? { histogram: [h["1"] ?? 0, h["2"] ?? 0, h["3"] ?? 0, h["4"] ?? 0, h["5"] ?? 0] } : {}),
  };
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}
