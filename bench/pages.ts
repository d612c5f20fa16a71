/**
 * Page speed on the production build: Largest Contentful Paint in Chromium (PerformanceObserver
 * 'largest-contentful-paint', a fresh browser context per run, so nothing is cached) and first-load
 * JavaScript (every <script src> of the page's HTML, gzipped), for the join page and the dashboard,
 * side by side with a bare HTML page served by the same server in the same run.
 * Goals: LCP <= 1.0 s on localhost, first-load JS <= 250 KB gzipped per page.
 *   npx tsx bench/pages.ts [runs]
 */
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { percentile, startBenchServer } from "./lib";

const runs = Number(process.argv[2] ?? 15);
type State = Awaited<ReturnType<BrowserContext["storageState"]>>;

const server = await startBenchServer({ database: "bench_pages", readyPath: "/api/bench/page" });
const base = server.base;

/** Signs in as the demo user and makes a mesh with an invite: a session for the dashboard, a token for the join page. */
async function prepare(browser: Browser): Promise<{ state: State; token: string }> {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail").fill("user@example.com");
  await page.getByLabel("Password").fill("user-demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/en\/dashboard$/);
  const slug = `bench-${Date.now().toString(36)}`;
  const mesh = (await (
    await page.request.post("/api/my/meshes", { data: { name: `Bench ${slug}`, slug } })
  ).json()) as { id: string };
  const invite = (await (await page.request.post(`/api/my/meshes/${mesh.id}/invites`, { data: {} })).json()) as {
    token: string;
  };
  const state = await context.storageState();
  await context.close();
  return { state, token: invite.token };
}

/** LCP of one cold load: the last candidate the observer reported once the page has loaded and settled. */
async function lcpOnce(browser: Browser, path: string, state?: State): Promise<number> {
  const context = await browser.newContext({
    baseURL: base,
    storageState: state,
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  await page.goto(path, { waitUntil: "load" });
  await page.waitForTimeout(300);
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1]?.startTime ?? NaN);
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve(NaN), 2000);
      }),
  );
  await context.close();
  return lcp;
}

/** First-load JavaScript of a page: the scripts its HTML loads, raw and gzipped. */
async function firstLoadJs(browser: Browser, path: string, state?: State) {
  const context = await browser.newContext({ baseURL: base, storageState: state });
  const html = await (await context.request.get(path)).text();
  const srcs = [...new Set([...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] ?? ""))].filter(Boolean);
  let raw = 0;
  let gz = 0;
  for (const src of srcs) {
    const body = await (await context.request.get(src.replace(/&amp;/g, "&"))).body();
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
  }
  await context.close();
  return { scripts: srcs.length, raw, gz };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (v: number) => `${v.toFixed(0)} ms`;

try {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  const { state, token } = await prepare(browser);
  const pages: { name: string; path: string; state?: State }[] = [
    { name: "baseline (bare HTML)", path: "/api/bench/page" },
    { name: "join page", path: `/en/join/${token}` },
    { name: "dashboard", path: "/en/dashboard", state },
    { name: "home (reference)", path: "/en" },
    { name: "admin meshes (reference)", path: "/en/admin/meshes" },
  ];
  // The admin page needs the administrator; sign in once for it.
  const adminCtx = await browser.newContext({ baseURL: base });
  const admin = await adminCtx.newPage();
  await admin.goto("/en/sign-in");
  await admin.getByLabel("E-mail").fill("admin@example.com");
  await admin.getByLabel("Password").fill("admin-demo-password");
  await admin.getByRole("button", { name: "Sign in" }).click();
  await admin.waitForURL(/\/en\/dashboard$/);
  const last = pages[pages.length - 1];
  if (last) last.state = await adminCtx.storageState();
  await adminCtx.close();

  console.log(`LCP: ${runs} cold loads per page (fresh context each, 2 warm-up loads first), 1280x800, localhost`);
  console.log(
    `${"page".padEnd(26)} ${"LCP median".padStart(10)} ${"LCP p95".padStart(8)} ${"x bare".padStart(7)} ${"scripts".padStart(8)} ${"JS raw".padStart(9)} ${"JS gzip".padStart(9)}  goals (LCP<=1000 ms, JS<=250 KB)`,
  );
  let bareMedian = NaN;
  for (const p of pages) {
    for (let i = 0; i < 2; i++) await lcpOnce(browser, p.path, p.state);
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) samples.push(await lcpOnce(browser, p.path, p.state));
    const median = percentile(samples, 50);
    const p95 = percentile(samples, 95);
    if (Number.isNaN(bareMedian)) bareMedian = median;
    const js = await firstLoadJs(browser, p.path, p.state);
    const met = median <= 1000 && js.gz <= 250 * 1024 ? "met" : "MISSED";
    console.log(
      `${p.name.padEnd(26)} ${ms(median).padStart(10)} ${ms(p95).padStart(8)} ${(median / bareMedian).toFixed(2).padStart(7)} ${String(js.scripts).padStart(8)} ${kb(js.raw).padStart(9)} ${kb(js.gz).padStart(9)}  ${met}`,
    );
  }
  await browser.close();
} finally {
  await server.stop();
}
