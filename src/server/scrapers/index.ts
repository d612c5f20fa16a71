import { ScrapeError, type Scraper } from "./types";

export * from "./types";

/**
 * Implementation names (the registry's scraper versions point at these):
 * - "browser-v1": Playwright + Chromium, layout 1 only (fails on layout 2 with layout_changed)
 * - "browser-v2": Playwright + Chromium, layouts 1 and 2
 * - "http-json":  the platform's paged JSON reviews API
 * - "noop":       returns no reviews at once (benchmarks)
 */
export const SCRAPER_IMPLEMENTATIONS: readonly string[] = ["browser-v1", "browser-v2", "http-json", "noop"];

const noopScraper: Scraper = {
  implementation: "noop",
  async scrape(target) {
    return { placeKey: `noop:${target.platformId ?? target.placeUrl ?? "none"}`, reviews: [] };
  },
};

function pending(implementation: string): Scraper {
  return {
    implementation,
    async scrape() {
      throw new ScrapeError("internal", `${implementation} is not implemented yet`);
    },
  };
}

const registry = new Map<string, Scraper>([
  ["browser-v1", pending("browser-v1")],
  ["browser-v2", pending("browser-v2")],
  ["http-json", pending("http-json")],
  ["noop", noopScraper],
]);

export function getScraper(implementation: string): Scraper | undefined {
  return registry.get(implementation);
}

/** Closes the shared browser (if one was launched). Safe to call more than once. */
export async function closeScrapers(): Promise<void> {}
