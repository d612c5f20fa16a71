/**
 * Implementation names a scraper version may name: the same list as SCRAPER_IMPLEMENTATIONS in
 * src/server/scrapers (a unit test keeps them equal). Kept here so the web app does not load the
 * scrapers themselves (Playwright) just to validate a name.
 */
export const KNOWN_IMPLEMENTATIONS: readonly string[] = ["browser-v1", "browser-v2", "http-json", "noop"];
