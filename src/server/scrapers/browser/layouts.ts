import type { Page } from "playwright-core";
import type { PlaceFacts } from "../types";
import type { RawCard } from "./parse";

/** How a scraper finds, opens, grows and reads the reviews of one page layout. */
export interface LayoutDriver {
  name: "layout-1" | "layout-2";
  /** The layout's entry point (the reviews tab) is on the page. */
  detect(page: Page): Promise<boolean>;
  /** Opens the reviews (a click); the first batch then loads by itself. */
  open(page: Page): Promise<void>;
  /** Asks for the next batch (scroll to the bottom, or the "more" button). */
  more(page: Page): Promise<void>;
  /** Reads every card on the page. */
  extract(page: Page): Promise<RawCard[]>;
  /** Reads what the page's header shows about the place (address, rating, review count, histogram). */
  facts(page: Page): Promise<RawFacts>;
  /** CSS selectors the loading loop watches. */
  selectors: {
    /** The container the cards go into (missing after opening: the layout changed). */
    list: string;
    card: string;
    /** Present once every review is shown. */
    end: string;
    /** Present when loading failed; its attribute `errorStatusAttr` holds the HTTP status. */
    error: string;
    errorStatusAttr: string;
  };
}

/** A place header's facts as text, before parsing (`placeFacts`). */
export interface RawFacts {
  address: string | null;
  rating: string | null;
  reviewCount: string | null;
  /** Text holding each star level's count, 1 to 5. */
  histogram: (string | null)[];
}

/** The numbers in a place header's texts; a fact the page does not show (or shows unreadably) is left out. */
export function placeFacts(raw: RawFacts): PlaceFacts {
  const number = (text: string | null) => {
    const m = /(\d+(?:[.,]\d+)?)/.exec(text ?? "");
    return m ? Number(m[1]!.replace(",", ".")) : undefined;
  };
  const rating = number(raw.rating);
  const reviewCount = number(raw.reviewCount);
  const bars = raw.histogram.map(number);
  return {
    ...(raw.address?.trim() ? { address: raw.address.trim() } : {}),
    ...(rating !== undefined && rating <= 5 ? { rating } : {}),
    ...(reviewCount !== undefined && Number.isInteger(reviewCount) ? { reviewCount } : {}),
    ...(bars.length === 5 && bars.every((b) => b !== undefined && Number.isInteger(b))
      ? { histogram: bars as [number, number, number, number, number] }
      : {}),
  };
}

/** Layout 1: `[role=tab][data-tab=reviews]`, `article.review-card`, infinite scroll with a sentinel. */
export const layout1: LayoutDriver = {
  name: "layout-1",
  selectors: {
    list: "#review-list",
    card: "#review-list article.review-card",
    end: ".review-end",
    error: ".review-error",
    errorStatusAttr: "data-status",
  },
  detect: async (page) => (await page.locator('[role="tab"][data-tab="reviews"]').count()) > 0,
  facts: (page) =>
    page.evaluate(() => ({
      address: document.querySelector(".place-address")?.textContent ?? null,
      rating: document.querySelector(".place-rating")?.getAttribute("aria-label") ?? null,
      reviewCount: (document.querySelector(".place-rating")?.textContent ?? "").split("·")[1] ?? null,
      histogram: [1, 2, 3, 4, 5].map(
        (n) => document.querySelector(`.place-histogram dd[data-stars="${n}"]`)?.textContent ?? null,
      ),
    })),
  open: (page) => page.locator('[role="tab"][data-tab="reviews"]').first().click(),
  more: async (page) => {
    // Already at the bottom (the page was still loading when the sentinel came into view): step back a
    // screen and return, so that the sentinel comes into view again and the page loads the next batch.
    await page.evaluate(async () => {
      if (window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2) {
        window.scrollBy(0, -window.innerHeight);
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      }
      window.scrollTo(0, document.documentElement.scrollHeight);
    });
  },
  extract: (page) =>
    page.$$eval("#review-list article.review-card", (cards) =>
      cards.map((card) => {
        // No helper functions in here: the bundler would wrap them in a __name() the page does not have.
        const author = card.querySelector(".review-author");
        const rating = card.querySelector(".review-rating");
        const time = card.querySelector("time");
        const text = card.querySelector(".review-text");
        return {
          id: card.getAttribute("data-review-id"),
          author: author?.textContent ?? null,
          anonymous: author?.getAttribute("data-anonymous") === "true",
          ratingLabel: rating?.getAttribute("aria-label") ?? rating?.textContent ?? null,
          filledStars: null,
          dateValue: time?.getAttribute("datetime") ?? null,
          dateText: time?.textContent ?? null,
          text: text?.textContent ?? null,
          language: text?.getAttribute("lang") ?? card.getAttribute("lang"),
          ownerReply: card.querySelector(".owner-reply p")?.textContent ?? null,
          replyDateValue: card.querySelector(".owner-reply time")?.getAttribute("datetime") ?? null,
          helpfulText: card.querySelector(".review-helpful")?.getAttribute("data-count") ?? null,
          photos: Array.from(card.querySelectorAll(".review-photos a.review-photo")).map(
            (a) => a.getAttribute("href") ?? "",
          ),
          reviewerHref: card.querySelector("a.reviewer-profile")?.getAttribute("href") ?? null,
          reviewerCountText: card.querySelector("a.reviewer-profile")?.getAttribute("data-review-count") ?? null,
          editedValue: card.querySelector(".review-edited time")?.getAttribute("datetime") ?? null,
          originalText:
            text?.getAttribute("data-translated") === "true"
              ? (card.querySelector(".review-original p")?.textContent ?? null)
              : null,
          originalLanguage: card.querySelector(".review-original p")?.getAttribute("lang") ?? null,
        };
      }),
    ),
};

/** Layout 2: a section menu link, `li.rv-item` cards, a "Show more reviews" button. */
export const layout2: LayoutDriver = {
  name: "layout-2",
  selectors: {
    list: ".rv-list",
    card: ".rv-list li.rv-item",
    end: ".rv-done",
    error: ".rv-problem",
    errorStatusAttr: "data-http-status",
  },
  detect: async (page) => (await page.locator('a.lx-nav-link[data-section="reviews"]').count()) > 0,
  facts: (page) =>
    page.evaluate(() => ({
      address: document.querySelector(".lx-where")?.textContent ?? null,
      rating: document.querySelector(".lx-score")?.textContent ?? null,
      reviewCount: document.querySelector(".lx-count")?.textContent ?? null,
      histogram: [1, 2, 3, 4, 5].map(
        (n) => document.querySelector(`.lx-bars li[data-s="${n}"]`)?.getAttribute("title") ?? null,
      ),
    })),
  open: (page) => page.locator('a.lx-nav-link[data-section="reviews"]').first().click(),
  more: async (page) => {
    const button = page.locator("button.rv-more:not([disabled])");
    if ((await button.count()) > 0) await button.first().click();
  },
  extract: (page) =>
    page.$$eval(".rv-list li.rv-item", (items) =>
      items.map((item) => {
        const name = item.querySelector(".rv-name");
        const date = item.querySelector(".rv-date");
        return {
          id: item.getAttribute("data-rid"),
          author: name?.textContent ?? null,
          anonymous: name?.classList.contains("rv-name--guest") ?? false,
          ratingLabel: item.querySelector(".rv-stars")?.getAttribute("title") ?? null,
          filledStars: item.querySelectorAll(".rv-stars .star.on").length || null,
          dateValue: date?.getAttribute("data-ts") ?? null,
          dateText: date?.textContent ?? null,
          text: item.querySelector(".rv-body")?.textContent ?? null,
          language: item.querySelector(".rv-body")?.getAttribute("data-lang") ?? item.getAttribute("data-lang"),
          ownerReply: item.querySelector(".rv-response p")?.textContent ?? null,
          replyDateValue: item.querySelector(".rv-response")?.getAttribute("data-ts") ?? null,
          helpfulText: item.querySelector(".rv-useful")?.getAttribute("data-votes") ?? null,
          photos: Array.from(item.querySelectorAll(".rv-photos a")).map((a) => a.getAttribute("href") ?? ""),
          reviewerHref: item.querySelector("a.rv-profile")?.getAttribute("href") ?? null,
          reviewerCountText: item.querySelector("a.rv-profile")?.getAttribute("title") ?? null,
          editedValue: item.querySelector(".rv-edited")?.getAttribute("data-ts") ?? null,
          originalText:
            item.querySelector(".rv-body")?.getAttribute("data-machine-translated") === "1"
              ? (item.querySelector(".rv-source")?.textContent ?? null)
              : null,
          originalLanguage: item.querySelector(".rv-source")?.getAttribute("data-lang") ?? null,
        };
      }),
    ),
};
