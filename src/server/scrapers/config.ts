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
  /**
   * Platform origins (comma-separated) whose host name may resolve to loopback or private addresses.
   * An origin whose host is a literal address or `localhost` needs no entry: its operator wrote the address.
   */
  SCRAPER_PRIVATE_ORIGINS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((o) => URL.canParse(o)), {
      error: "must be a comma-separated list of origins such as https://reviews.internal",
    })
    .transform((list) => list.map((o) => new URL(o).origin)),
  /** The user the browser runs as when the worker runs as root (Chromium's sandbox cannot start as root). */
  SCRAPER_BROWSER_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$/, { error: "must be a user name" })
    .default("nobody"),
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
