// Targets stay on the platform (issue 14, point 1): a probe server on 127.0.0.1 must receive no
// connection at all from a scrape, whether the target names it, the platform redirects to it, or a
// page of the platform tries to reach it from the browser. Every server here listens on loopback.
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProbe, type Probe } from "@/test/probe";
import { rejectionOf } from "@/test/rejection";
import { withPage, sharedBrowser } from "./browser/shared-browser";
import { closeScrapers, getScraper, ScrapeError, setScraperConfig, type ScrapeTarget } from "./index";

const IMPLS = ["browser-v1", "browser-v2", "http-json"] as const;
let probe: Probe;
let platform: Probe;

/** A page of the platform whose scripts and markup try every way a page has to reach the probe. */
function hostilePage(target: string): string {
  return `<!doctype html><html><head>
<link rel="preconnect" href="${target}"><link rel="dns-prefetch" href="${target}">
<link rel="stylesheet" href="${target}/style.css"><link rel="prefetch" href="${target}/prefetch">
<script src="${target}/script.js"></script>
</head><body>
<img src="${target}/img.png"><iframe src="${target}/frame"></iframe>
<form id="f" method="post" action="${target}/form" target="sink"><input name="a" value="b"></form><iframe name="sink"></iframe>
<script>
  fetch("${target}/fetch", { method: "POST", body: "x", mode: "no-cors" }).catch(() => {});
  const x = new XMLHttpRequest(); x.open("GET", "${target}/xhr"); x.send();
  navigator.sendBeacon("${target}/beacon", "x");
  try { new WebSocket("${target.replace("http", "ws")}/ws"); } catch (e) {}
  try { new EventSource("${target}/events"); } catch (e) {}
  document.getElementById("f").submit();
  window.open("${target}/popup");
  setTimeout(() => { fetch("/done").then(() => { window.done = true; }); }, 300);
</script></body></html>`;
}

beforeAll(async () => {
  setScraperConfig({ SCRAPER_NAVIGATION_TIMEOUT_MS: 15_000, SCRAPER_STEP_TIMEOUT_MS: 8_000 });
  probe = await startProbe();
  platform = await startProbe((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/hostile"))
      return void res.writeHead(200, { "content-type": "text/html" }).end(hostilePage(probe.url));
    if (url.startsWith("/done")) return void res.end("ok");
    // The place page and the JSON API both redirect to the probe; one place moves within the origin.
    if (url.startsWith("/places/away") || url.startsWith("/api/places/away"))
      return void res.writeHead(302, { location: `${probe.url}/stolen` }).end();
    if (url.startsWith("/api/places/moved/"))
      return void res.writeHead(301, { location: url.replace("/moved/", "/here/") }).end();
    if (url.startsWith("/api/places/here/reviews")) {
      return void res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          place: { id: "here", name: "Here" },
          nextPage: null,
          reviews: [
            {
              id: "r1",
              author: "A",
              rating: 5,
              text: "Fine",
              language: "en",
              publishedAt: "2026-01-01T00:00:00Z",
              ownerReply: null,
            },
          ],
        }),
      );
    }
    res.writeHead(404).end();
  });
});
afterAll(async () => {
  await closeScrapers();
  await probe.close();
  await platform.close();
});

function scrape(impl: string, target: Partial<ScrapeTarget>) {
  const scraper = getScraper(impl);
  if (!scraper) throw new Error(`no scraper ${impl}`);
  return scraper.scrape(
    { limit: 10, sort: "newest", ...target },
    { signal: AbortSignal.timeout(20_000), platformUrl: platform.url },
  );
}

describe("the platform's origin is the only one a scrape reaches", () => {
  it.each(IMPLS)("%s refuses a place URL on another origin before any request", async (impl) => {
    const error = await rejectionOf(scrape(impl, { placeUrl: `${probe.url}/places/p-0001` }), ScrapeError);
    expect(error).toMatchObject({ errorClass: "invalid_target", transient: false });
    expect(error.message).toMatch(/^target_not_allowed/);
    expect(error.message).not.toContain(String(probe.port));
    expect(probe.connections).toBe(0);
  });

  it.each(IMPLS)("%s does not follow the platform's redirect to another origin", async (impl) => {
    const error = await rejectionOf(scrape(impl, { platformId: "away" }), ScrapeError);
    expect(error.errorClass).toBe("blocked");
    expect(error.message).not.toContain(String(probe.port));
    expect(probe.connections).toBe(0);
  });

  it("follows a redirect within the platform's origin", async () => {
    const result = await scrape("http-json", { platformId: "moved" });
    expect(result.reviews.map((r) => r.externalId)).toEqual(["r1"]);
    expect(result.origin).toBe(platform.url);
  });

  it("a page's scripts, markup, sockets, forms and popups reach nothing but the platform", async () => {
    const controller = new AbortController();
    const blocked = await withPage(controller.signal, platform.url, async (page) => {
      await page.goto(`${platform.url}/hostile`);
      await page.waitForFunction(() => (window as unknown as { done?: boolean }).done === true, undefined, {
        timeout: 10_000,
      });
      await page.waitForTimeout(500);
      return true;
    });
    expect(blocked).toBe(true);
    expect(platform.requests.some((r) => r.url === "/done")).toBe(true);
    expect(probe.connections).toBe(0);
    expect(probe.requests).toEqual([]);
  });
});

describe("the browser", () => {
  it("runs with Chromium's sandbox on, as an unprivileged user when the worker is root", async () => {
    const browser = await sharedBrowser();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto("chrome://sandbox");
      await expect.poll(async () => (await page.textContent("body")) ?? "").toContain("You are adequately sandboxed");
    } finally {
      await context.close();
    }
    if (process.getuid?.() === 0) {
      // Every Chromium process this test process started runs as another user than root.
      const status = (pid: string) => readFileSync(`/proc/${pid}/status`, "utf8");
      const ours = (pid: string): boolean => {
        for (let p = pid, depth = 0; p !== "0" && p !== "1" && depth < 20; depth += 1) {
          if (p === String(process.pid)) return true;
          p = /^PPid:\s+(\d+)/m.exec(status(p))?.[1] ?? "0";
        }
        return false;
      };
      const uids = readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .flatMap((pid) => {
          try {
            // Chromium's own processes (Debian's /usr/bin/chromium is a script that starts this binary).
            if (!/\/chrom(e|ium)$/.test(readlinkSync(`/proc/${pid}/exe`)) || !ours(pid)) return [];
            return [Number(/^Uid:\s+(\d+)/m.exec(status(pid))?.[1])];
          } catch {
            return [];
          }
        });
      expect(uids.length).toBeGreaterThan(0);
      expect(uids.every((uid) => uid !== 0)).toBe(true);
    }
  });
});
