import { z } from "zod";
import { envInt, parseConfig } from "../core/config";

/** Scraper settings from the environment; every name and default is listed in the README. */
export const ZScraperConfig = z.object({
  /** The Chromium the browser scrapers drive (Debian's; Playwright's own download cannot run here). */
  CHROMIUM_PATH: z.string().min(1).default("/usr/bin/chromium"),
  /** Longest wait for a place page to load. */
  SCRAPER_NAVIGATION_TIMEOUT_MS: envInt(30_000, 100, 600_000),
  /** Longest wait for one step on a page (tab opening, the next batch of reviews). */
  SCRAPER_STEP_TIMEOUT_MS: envInt(10_000, 100, 600_000),
});
export type TScraperConfig = z.output<typeof ZScraperConfig>;

let cached: TScraperConfig | undefined;

/** The scraper settings, parsed on first use (a bad value throws a ConfigError naming the variable). */
export function scraperConfig(): TScraperConfig {
  cached ??= parseConfig(ZScraperConfig);
  return cached;
}

/** Replaces the settings (tests, or a process that parsed them at start-up). */
export function setScraperConfig(config: Partial<TScraperConfig>): void {
  cached = { ...scraperConfig(), ...config };
}
