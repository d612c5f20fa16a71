import net from "node:net";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, LaunchOptions, Page } from "playwright-core";
import { waitAtMost } from "../../core/lifecycle";
import { abortError, classifyError, throwIfAborted } from "../classify";
import { scraperConfig } from "../config";
import { ScrapeError } from "../types";
import { installGate } from "./gate";

/**
 * Chromium flags (no GPU, no background traffic of its own, no WebRTC outside the proxy). The sandbox
 * stays on: as root the browser runs as SCRAPER_BROWSER_USER (chromium-unprivileged.sh).
 */
export const CHROMIUM_ARGS = [
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
  "--dns-prefetch-disable",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

const UNPRIVILEGED = fileURLToPath(new URL("./chromium-unprivileged.sh", import.meta.url));

/**
 * A proxy that answers nothing: Chromium's own connections (those no page request makes, such as a
 * preconnect) go here and are closed at once, so the browser reaches no host by itself. Page
 * requests never get here: the gate answers them first (gate.ts).
 */
async function startNullProxy(): Promise<net.Server> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  return server;
}

/** How this process launches Chromium: sandboxed, as an unprivileged user when it is root, behind the null proxy. */
function launchOptions(proxyPort: number): LaunchOptions {
  const config = scraperConfig();
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  return {
    executablePath: asRoot ? UNPRIVILEGED : config.CHROMIUM_PATH,
    chromiumSandbox: true,
    headless: true,
    args: [...CHROMIUM_ARGS, `--proxy-server=http://127.0.0.1:${proxyPort}`, "--proxy-bypass-list=<-loopback>"],
    env: { ...process.env, SCRAPER_CHROMIUM: config.CHROMIUM_PATH, SCRAPER_BROWSER_USER: config.SCRAPER_BROWSER_USER },
  };
}

let launching: Promise<Browser> | undefined;

/** The one browser of the process, launched on first use and again if it crashed or was closed. */
export function sharedBrowser(): Promise<Browser> {
  if (!launching) {
    const config = scraperConfig();
    // Loaded on first use: processes that never drive a browser do not pay for Playwright at start-up.
    let proxy: net.Server | undefined;
    const attempt = (async () => {
      proxy = await startNullProxy();
      const { chromium } = await import("playwright-core");
      return chromium.launch(launchOptions((proxy.address() as net.AddressInfo).port));
    })();
    launching = attempt.then(
      (browser) => {
        browser.once("disconnected", () => {
          proxy?.close();
          if (launching === attempt) launching = undefined;
        });
        return browser;
      },
      (error: unknown) => {
        proxy?.close();
        launching = undefined;
        throw new ScrapeError(
          "internal",
          `Chromium could not start with its sandbox (${config.CHROMIUM_PATH}; see docs/scrapers.md)`,
          { cause: error, transient: false },
        );
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
 * Runs `work` on a fresh page in its own browser context (own cookies), closed afterwards, whose only
 * reachable origin is `origin` (the gate, gate.ts). Aborting the signal settles the scrape at once
 * (whatever step it is in, launch included) and closes the context, so a slow page or a long scroll
 * stops immediately; every error leaves as a classified ScrapeError.
 */
export async function withPage<T>(signal: AbortSignal, origin: string, work: (page: Page) => Promise<T>): Promise<T> {
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
  let documentError: unknown;
  const run = async () => {
    const browser = await sharedBrowser();
    const created = await browser.newContext({
      locale: "en-US",
      viewport: { width: 1280, height: 900 },
      serviceWorkers: "block",
      acceptDownloads: false,
    });
    context = created;
    if (signal.aborted) {
      // The abort came while the context was being made: nobody else will close it.
      await closeQuietly(created);
      throw abortError(signal);
    }
    const config = scraperConfig();
    const gate = await installGate(created, origin, signal, config.SCRAPER_NAVIGATION_TIMEOUT_MS);
    created.setDefaultNavigationTimeout(config.SCRAPER_NAVIGATION_TIMEOUT_MS);
    created.setDefaultTimeout(config.SCRAPER_STEP_TIMEOUT_MS);
    try {
      return await work(await created.newPage());
    } catch (error) {
      documentError = gate.documentError;
      throw error;
    }
  };
  try {
    return await Promise.race([run(), aborted]);
  } catch (error) {
    // The gate knows why the place page failed better than Chromium's error text does.
    throw classifyError(documentError ?? error, signal);
  } finally {
    signal.removeEventListener("abort", onAbort);
    await closeQuietly(context);
  }
}
