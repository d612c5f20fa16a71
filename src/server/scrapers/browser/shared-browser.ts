import type { Browser, BrowserContext, Page } from "playwright-core";
import { waitAtMost } from "../../core/lifecycle";
import { abortError, classifyError, throwIfAborted } from "../classify";
import { scraperConfig } from "../config";
import { ScrapeError } from "../types";

/** Chromium flags for these machines (root, no GPU, no background traffic); the same as e2e/playwright.config.ts. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

let launching: Promise<Browser> | undefined;

/** The one browser of the process, launched on first use and again if it crashed or was closed. */
export function sharedBrowser(): Promise<Browser> {
  if (!launching) {
    const config = scraperConfig();
    // Loaded on first use: processes that never drive a browser do not pay for Playwright at start-up.
    const attempt = import("playwright-core").then(({ chromium }) =>
      chromium.launch({ executablePath: config.CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true }),
    );
    launching = attempt.then(
      (browser) => {
        browser.once("disconnected", () => {
          if (launching === attempt) launching = undefined;
        });
        return browser;
      },
      (error: unknown) => {
        launching = undefined;
        throw new ScrapeError("internal", `Chromium could not start (${config.CHROMIUM_PATH})`, { cause: error, transient: false });
      },
    );
  }
  return launching;
}

/** Closes the shared browser if one runs (shutdown, tests); the next scrape launches a new one. */
export async function closeSharedBrowser(): Promise<void> {
  const current = launching;
  launching = undefined;
  if (!current) return;
  const browser = await current.catch(() => undefined);
  await browser?.close().catch(() => {});
}

/** Closes a context without ever waiting long: a context closed mid-navigation can take its time. */
async function closeQuietly(context: BrowserContext | undefined): Promise<void> {
  if (!context) return;
  await waitAtMost(context.close(), 2_000);
}

/**
 * Runs `work` on a fresh page in its own browser context (own cookies), closed afterwards. Aborting
 * the signal settles the scrape at once (whatever step it is in, launch included) and closes the
 * context, so a slow page or a long scroll stops immediately; every error leaves as a classified ScrapeError.
 */
export async function withPage<T>(signal: AbortSignal, work: (page: Page) => Promise<T>): Promise<T> {
  throwIfAborted(signal);
  let context: BrowserContext | undefined;
  let rejectAbort: (error: ScrapeError) => void = () => {};
  const aborted = new Promise<never>((_, reject) => (rejectAbort = reject));
  aborted.catch(() => {});
  const onAbort = () => {
    rejectAbort(abortError(signal));
    void closeQuietly(context);
  };
  signal.addEventListener("abort", onAbort, { once: true });
  const run = async () => {
    const browser = await sharedBrowser();
    const created = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 }, serviceWorkers: "block" });
    context = created;
    if (signal.aborted) {
      // The abort came while the context was being made: nobody else will close it.
      await closeQuietly(created);
      throw abortError(signal);
    }
    const config = scraperConfig();
    created.setDefaultNavigationTimeout(config.SCRAPER_NAVIGATION_TIMEOUT_MS);
    created.setDefaultTimeout(config.SCRAPER_STEP_TIMEOUT_MS);
    return work(await created.newPage());
  };
  try {
    return await Promise.race([run(), aborted]);
  } catch (error) {
    throw classifyError(error, signal);
  } finally {
    signal.removeEventListener("abort", onAbort);
    await closeQuietly(context);
  }
}
