import type { Page, Response } from "playwright-core";
import { errorForStatus, throwIfAborted } from "../classify";
import { scraperConfig } from "../config";
import { applyTarget, cutAtKnown, resolveTarget, targetParams } from "../demo-platform/target";
import {
  ScrapeError,
  stopReasonOf,
  type ScrapedReview,
  type ScrapeContext,
  type Scraper,
  type ScrapeTarget,
} from "../types";
import { placeFacts, type LayoutDriver } from "./layouts";
import { toScrapedReview, type RawCard } from "./parse";
import { withPage } from "./shared-browser";

/** A Playwright scraper that knows the given layouts (tried in order); any other page is layout_changed. */
export function browserScraper(implementation: string, layouts: LayoutDriver[]): Scraper {
  return {
    implementation,
    async scrape(target, ctx) {
      const place = resolveTarget(target, ctx);
      const url = `${place.origin}/places/${encodeURIComponent(place.placeId)}?${targetParams(target, place.knobs)}`;
      const report = (reviews: ScrapedReview[], placeName: string | undefined) =>
        ctx.onReviews?.({
          origin: place.origin,
          placeKey: place.placeKey,
          platformId: place.placeId,
          placeName,
          reviews: applyTarget(reviews, target),
        });
      // A new_only read stops at the first run of known reviews (the list as read so far, cut there).
      const known = (read: ScrapedReview[]) => cutAtKnown(ctx, place, applyTarget(read, target));
      const {
        reviews: read,
        placeName,
        facts,
        listEnded,
        knownCut,
      } = await withPage(ctx.signal, place.origin, (page) =>
        scrapePage(page, url, layouts, target, ctx, report, known),
      );
      const reviews = knownCut ?? applyTarget(read, target);
      // The list's end shown before the limit was reached is its end (or where `since` cut it).
      const stopReason = knownCut
        ? "known_reached"
        : reviews.length >= target.limit || !listEnded
          ? "limit"
          : stopReasonOf(reviews.length, target);
      return {
        origin: place.origin,
        placeKey: place.placeKey,
        platformId: place.placeId,
        placeName,
        facts: { ...facts, ...(placeName ? { name: placeName } : {}) },
        stopReason,
        reviews,
      };
    },
  };
}

/** The reviews of raw cards (links resolved on the page's origin); cards without an id are left out. */
function cardsOf(raw: RawCard[], pageUrl: string): ScrapedReview[] {
  const origin = new URL(pageUrl).origin;
  const now = new Date();
  return raw.map((card) => toScrapedReview(card, origin, now)).filter((r): r is ScrapedReview => r !== null);
}

/** How often at most the loading loop reads the cards shown so far for `ctx.onReviews`. */
const BROWSER_CHECKPOINT_MS = 2_000;

async function scrapePage(
  page: Page,
  url: string,
  layouts: LayoutDriver[],
  target: ScrapeTarget,
  ctx: ScrapeContext,
  report: (reviews: ScrapedReview[], placeName: string | undefined) => void,
  known: (read: ScrapedReview[]) => Promise<ScrapedReview[] | null>,
): Promise<{
  reviews: ScrapedReview[];
  placeName: string | undefined;
  facts: ReturnType<typeof placeFacts>;
  listEnded: boolean;
  knownCut?: ScrapedReview[];
}> {
  // Every answer to a reviews request is noted: it tells a failed load (and its Retry-After) from a changed layout.
  const fragments = { ok: 0, failed: undefined as Response | undefined };
  page.on("response", (res) => {
    if (!/^\/places\/[^/]+\/reviews\/?$/.test(new URL(res.url()).pathname)) return;
    if (res.ok()) fragments.ok += 1;
    else fragments.failed = res;
  });

  const response = await page.goto(url, { waitUntil: "domcontentloaded" });
  if (!response) throw new ScrapeError("internal", "the place page gave no response");
  const failure = errorForStatus(response.status(), "place page", response.headers()["retry-after"]);
  if (failure) throw failure;
  if ((await page.locator("#captcha, .captcha, iframe[src*=captcha]").count()) > 0)
    throw new ScrapeError("blocked", "place page shows a captcha");
  const placeName = (
    await page
      .locator("h1.place-name, h2.lx-title")
      .first()
      .textContent({ timeout: 1_000 })
      .catch(() => null)
  )?.trim();

  let layout: LayoutDriver | undefined;
  for (const candidate of layouts) {
    if (await candidate.detect(page)) {
      layout = candidate;
      break;
    }
  }
  if (!layout) {
    throw new ScrapeError(
      "layout_changed",
      `no known reviews tab on the place page (looked for ${layouts.map((l) => l.name).join(", ")})`,
    );
  }
  const facts = placeFacts(await layout.facts(page));
  if (target.limit === 0) return { reviews: [] as ScrapedReview[], placeName, facts, listEnded: false };

  // Answers to review requests counted up to the last change of the page: more answers and no new card is a changed layout.
  let okAtLastChange = fragments.ok;
  await layout.open(page);
  if ((await page.locator(layout.selectors.list).count()) === 0) {
    throw new ScrapeError(
      "layout_changed",
      `${layout.name}: the reviews list (${layout.selectors.list}) is missing after opening the tab`,
    );
  }
  const step = scraperConfig().SCRAPER_STEP_TIMEOUT_MS;
  let count = 0;
  let checkpointAt = Date.now();
  let listEnded = false;
  for (;;) {
    throwIfAborted(ctx.signal);
    const { card, end, error } = layout.selectors;
    await waitForGrowth(page, layout, count, step, () => fragments.ok > okAtLastChange);
    const state = await page.evaluate(
      ({ card, end, error, attr }) => ({
        count: document.querySelectorAll(card).length,
        done: !!document.querySelector(end),
        errorStatus: document.querySelector(error)?.getAttribute(attr) ?? null,
      }),
      { card, end, error, attr: layout.selectors.errorStatusAttr },
    );
    if (state.errorStatus !== null) throw loadFailure(state.errorStatus, fragments.failed);
    count = state.count;
    okAtLastChange = fragments.ok;
    ctx.onProgress?.(Math.min(count, target.limit));
    listEnded = state.done;
    if (ctx.known) {
      const knownCut = await known(cardsOf(await layout.extract(page), url));
      if (knownCut) return { reviews: knownCut, placeName, facts, listEnded, knownCut };
    }
    if (state.done || count >= target.limit) break;
    if (ctx.onReviews && Date.now() - checkpointAt >= BROWSER_CHECKPOINT_MS) {
      checkpointAt = Date.now();
      report(cardsOf(await layout.extract(page), url), placeName);
    }
    await layout.more(page);
  }
  const raw = await layout.extract(page);
  const reviews = cardsOf(raw, url);
  if (raw.length > 0 && reviews.length === 0)
    throw new ScrapeError("layout_changed", `${layout.name}: review cards have no ids`);
  return { reviews, placeName, facts, listEnded };
}

/** How long cards may take to show after their batch was answered before the markup counts as changed. */
const RENDER_GRACE_MS = 4_000;
/** How long the page may stay without asking for the next batch before the scraper asks again. */
const RETRIGGER_MS = 1_000;

/**
 * Waits until the page shows more cards than `prev`, its end marker or its error marker. Answered
 * batches with no new card for RENDER_GRACE_MS mean the card markup changed (layout_changed); no
 * answer within `stepMs` is a timeout. A page that has not been answered for RETRIGGER_MS is asked
 * again (`layout.more`): an infinite scroll that was still loading when the scraper reached the
 * bottom does not load again until the bottom comes into view anew.
 */
async function waitForGrowth(
  page: Page,
  layout: LayoutDriver,
  prev: number,
  stepMs: number,
  answered: () => boolean,
): Promise<void> {
  const { card, end, error } = layout.selectors;
  const deadline = Date.now() + stepMs;
  let answeredAt: number | undefined;
  let askedAt = Date.now();
  for (;;) {
    try {
      await page.waitForFunction(
        ({ card, end, error, prev }) =>
          document.querySelectorAll(card).length > prev ||
          !!document.querySelector(end) ||
          !!document.querySelector(error),
        { card, end, error, prev },
        { timeout: Math.max(1, Math.min(250, deadline - Date.now())), polling: 50 },
      );
      return;
    } catch (e) {
      if (!(e instanceof Error && e.name === "TimeoutError")) throw e;
      if (answered()) {
        answeredAt ??= Date.now();
        if (Date.now() - answeredAt >= Math.min(RENDER_GRACE_MS, stepMs)) {
          throw new ScrapeError(
            "layout_changed",
            `${layout.name}: reviews loaded but no review cards (${card}) appeared`,
            { cause: e },
          );
        }
      } else if (prev > 0 && Date.now() - askedAt >= RETRIGGER_MS) {
        askedAt = Date.now();
        await layout.more(page);
      }
      if (Date.now() >= deadline) throw e;
    }
  }
}

function loadFailure(domStatus: string, failed: Response | undefined): ScrapeError {
  const status = failed?.status() ?? Number(domStatus);
  if (!status) return new ScrapeError("network", "loading more reviews failed (network error in the page)");
  return (
    errorForStatus(status, "loading more reviews", failed?.headers()["retry-after"]) ??
    new ScrapeError("internal", `loading more reviews failed (${status})`)
  );
}
