import { browserScraper } from "./browser/browser-scraper";
import { layout1, layout2 } from "./browser/layouts";
import { closeSharedBrowser } from "./browser/shared-browser";
import { httpJsonScraper } from "./demo-platform/http-json";
import type { Scraper } from "./types";

export * from "./types";
export { classifyError } from "./classify";
export { ZScraperConfig, setScraperConfig, type TScraperConfig } from "./config";

const noopScraper: Scraper = {
  implementation: "noop",
  async scrape(target, ctx) {
    return {
      origin: new URL(ctx.platformUrl).origin,
      placeKey: `noop:${target.platformId ?? target.placeUrl ?? "none"}`,
      reviews: [],
    };
  },
};

/**
 * Every scraper, by implementation name (the registry's scraper versions point at these):
 * - "browser-v1": Playwright + Chromium, layout 1 only (fails on layout 2 with layout_changed)
 * - "browser-v2": Playwright + Chromium, layouts 1 and 2
 * - "http-json":  the platform's paged JSON reviews API, no browser
 * - "noop":       returns no reviews at once (benchmarks)
 */
const registry = new Map<string, Scraper>(
  [
    browserScraper("browser-v1", [layout1]),
    browserScraper("browser-v2", [layout1, layout2]),
    httpJsonScraper,
    noopScraper,
  ].map((s) => [s.implementation, s]),
);

export const SCRAPER_IMPLEMENTATIONS: readonly string[] = [...registry.keys()];

/** The scraper of an implementation name, or undefined for an unknown name. */
export function getScraper(implementation: string): Scraper | undefined {
  return registry.get(implementation);
}

/** Closes the shared browser (if one was launched); call on shutdown. Safe to call more than once. */
export async function closeScrapers(): Promise<void> {
  await closeSharedBrowser();
}
