/**
 * Screenshots of every page at 1280 and 375 px, in the light and the dark colour scheme (issue 44,
 * point 6: seen, not assumed):
 *   npm start            # in another terminal (the demo data and administrator)
 *   npm run screenshots  # SCREENSHOT_BASE_URL=http://localhost:3000 by default
 * Signs in as the demo administrator (and signs up a user for the pages a visitor or user sees),
 * makes a mesh with an invite and a small batch when there are none, and writes one PNG of the first
 * screen per page, width and scheme to SCREENSHOT_DIR (default .data/screenshots), named
 * `<page>-<desktop|mobile>-<light|dark>.png`. The pages the README links (light) are written again to
 * docs/screenshots/ as `<page>-<desktop|mobile>.png`. For every page at 375 px it prints where the
 * title starts (the header budget is 25 % of the screen, e2e/pages.spec.ts checks it).
 * SCREENSHOT_PAGES=home,audit limits the run to some pages; SCREENSHOT_README=0 leaves docs/screenshots/ alone.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium, type APIRequestContext } from "playwright-core";

const base = process.env.SCREENSHOT_BASE_URL ?? "http://localhost:3000";
const root = path.resolve(import.meta.dirname, "..");
const docs = path.join(root, "docs", "screenshots");
const out = path.resolve(root, process.env.SCREENSHOT_DIR ?? ".data/screenshots");
const only = process.env.SCREENSHOT_PAGES?.split(",").filter(Boolean);
/** SCREENSHOT_README=0: leave docs/screenshots/ as it is (e.g. for before/after pictures). */
const readme = process.env.SCREENSHOT_README !== "0";
const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 375, height: 812 },
] as const;
const SCHEMES = ["light", "dark"] as const;
/** The pages the README shows (docs/screenshots/). */
const README = new Set([
  "home",
  "mesh",
  "mesh-live",
  "settings",
  "engine",
  "jobs",
  "job",
  "pipeline-dashboard",
  "report",
  "admin",
  "audit",
  "api-reference",
]);

async function json<T>(request: APIRequestContext, url: string, init?: { data: unknown }): Promise<T> {
  const res = init ? await request.post(url, { data: init.data, headers: { origin: base } }) : await request.get(url);
  if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const admin = await browser.newContext({ baseURL: base, locale: "en-US" });
  const page = await admin.newPage();
  await page.goto("/en/sign-in", { waitUntil: "networkidle" });
  await page.getByLabel("E-mail").fill("admin@example.com");
  await page.getByLabel("Password").fill("admin-demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/en\/dashboard$/);
  const request = admin.request;

  const meshes = await json<{ items: { id: string }[] }>(request, "/api/my/meshes");
  const meshId =
    meshes.items[0]?.id ??
    (
      await json<{ id: string }>(request, "/api/my/meshes", {
        data: { name: "Kitchen crew", slug: `kitchen-crew-${Date.now().toString(36)}` },
      })
    ).id;
  const invite = await json<{ token?: string; shortUrl?: string }>(request, `/api/my/meshes/${meshId}/invites`, {
    data: {},
  });
  const runs = await json<{ items: { id: string }[] }>(
    request,
    "/api/pipelines/review-analytics/executions?status=succeeded",
  );
  const executionId = runs.items[0]?.id;
  const batches = await json<{ items: { id: string }[] }>(request, "/api/batches?page_size=1").catch(() => ({
    items: [],
  }));
  const batch =
    batches.items[0] ??
    (await json<{ id: string }>(request, "/api/scrape/platform-reviews/batch", {
      data: { requester_client_id: "screenshots", jobs: [{ platform_id: "p-0001", review_limit: 40 }] },
    }));
  const detail = await json<{ jobs?: { id: string }[] }>(request, `/api/batches/${batch.id}`).catch(() => ({
    jobs: [],
  }));
  const jobId = detail.jobs?.[0]?.id;
  const schedules = await json<{ items: { id: string }[] }>(request, "/api/schedules").catch(() => ({ items: [] }));
  const scheduleId = schedules.items[0]?.id;
  const code = invite.shortUrl ? new URL(invite.shortUrl).pathname.split("/").pop() : undefined;

  const visitor = await browser.newContext({ baseURL: base, locale: "en-US" });
  type Who = "visitor" | "admin";
  const pages: [string, string, Who][] = [
    ["home-visitor", "/en", "visitor"],
    ["sign-in", "/en/sign-in", "visitor"],
    ["sign-up", "/en/sign-up", "visitor"],
    ["forgot-password", "/en/forgot-password", "visitor"],
    ["api-reference", "/en/api-reference", "visitor"],
    ...(invite.token ? ([["join", `/en/join/${invite.token}`, "visitor"]] as [string, string, Who][]) : []),
    ...(code ? ([["join-short", `/en/join/${code}`, "visitor"]] as [string, string, Who][]) : []),
    ["not-found", "/en/no-such-page", "visitor"],
    ["job-not-found", "/en/engine/jobs/018f0000-0000-7000-8000-000000000000", "admin"],
    ["home", "/en", "admin"],
    ["dashboard", "/en/dashboard", "admin"],
    ["device", "/en/device", "admin"],
    ["new-mesh", "/en/dashboard/meshes/new", "admin"],
    ["mesh", `/en/dashboard/meshes/${meshId}`, "admin"],
    ["invite", `/en/dashboard/meshes/${meshId}/invite`, "admin"],
    ["mesh-live", `/en/dashboard/meshes/${meshId}/live`, "admin"],
    ["mesh-chat", `/en/dashboard/meshes/${meshId}/chat`, "admin"],
    ["settings", "/en/dashboard/settings", "admin"],
    ["admin", "/en/admin", "admin"],
    ["admin-meshes", "/en/admin/meshes", "admin"],
    ["admin-mesh", `/en/admin/meshes/${meshId}`, "admin"],
    ["admin-sessions", "/en/admin/sessions", "admin"],
    ["admin-invites", "/en/admin/invites", "admin"],
    ["audit", "/en/admin/audit", "admin"],
    ["engine", "/en/engine", "admin"],
    ["api-keys", "/en/engine/api-keys", "admin"],
    ["batches", "/en/engine/batches", "admin"],
    ["batch", `/en/engine/batches/${batch.id}`, "admin"],
    ["schedules", "/en/engine/schedules", "admin"],
    ...(scheduleId ? ([["schedule", `/en/engine/schedules/${scheduleId}`, "admin"]] as [string, string, Who][]) : []),
    ["jobs", "/en/engine/jobs", "admin"],
    ["new-job", "/en/engine/jobs/new", "admin"],
    ["new-schedule", "/en/engine/schedules/new", "admin"],
    ...(jobId ? ([["job", `/en/engine/jobs/${jobId}`, "admin"]] as [string, string, Who][]) : []),
    ["scrapers", "/en/engine/scrapers", "admin"],
    ["pipelines", "/en/pipelines", "admin"],
    ["pipeline-dashboard", "/en/pipelines/review-analytics", "admin"],
    ["execute", "/en/pipelines/review-analytics/execute", "admin"],
    ["executions", "/en/pipelines/review-analytics/executions", "admin"],
    ...(executionId
      ? ([
          ["execution", `/en/pipelines/review-analytics/executions/${executionId}`, "admin"],
          ["evidence", `/en/pipelines/review-analytics/executions/${executionId}/evidence/reviews`, "admin"],
          ["report", `/en/pipelines/review-analytics/report?execution=${executionId}`, "admin"],
        ] as [string, string, Who][])
      : []),
  ];
  await mkdir(out, { recursive: true });
  const visitorPage = await visitor.newPage();
  const tabs = [page, visitorPage];
  for (const size of WIDTHS) {
    for (const scheme of SCHEMES) {
      for (const tab of tabs) {
        await tab.setViewportSize({ width: size.width, height: size.height });
        await tab.emulateMedia({ colorScheme: scheme });
      }
      for (const [name, url, who] of pages) {
        if (only && !only.includes(name)) continue;
        const tab = who === "admin" ? page : visitorPage;
        await tab.goto(url, { waitUntil: "networkidle" });
        await tab.waitForTimeout(500); // charts take their size on the next frame
        const file = `${name}-${size.name}-${scheme}.png`;
        await tab.screenshot({ path: path.join(out, file) });
        if (readme && scheme === "light" && README.has(name))
          await tab.screenshot({ path: path.join(docs, `${name}-${size.name}.png`) });
        let note = "";
        if (size.name === "mobile" && scheme === "light") {
          const top = await tab.evaluate(() => document.querySelector("h1")?.getBoundingClientRect().top ?? -1);
          note = ` title at ${Math.round(top)} px (${Math.round((top / size.height) * 100)} % of the screen)`;
        }
        process.stdout.write(`${file}${note}\n`);
      }
    }
  }
} finally {
  await browser.close();
}
