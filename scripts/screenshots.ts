/**
 * Screenshots of the main pages at 1280 and 375 px for docs/screenshots/ (linked from the README):
 *   npm start            # in another terminal (the demo data and administrator)
 *   npm run screenshots  # SCREENSHOT_BASE_URL=http://localhost:3000 by default
 * Signs in as the demo administrator, makes a mesh with an invite and a small batch when there are
 * none, and writes one PNG per page and width (the first screen, as people see it on arrival).
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium, type APIRequestContext } from "playwright-core";

const base = process.env.SCREENSHOT_BASE_URL ?? "http://localhost:3000";
const out = path.resolve(import.meta.dirname, "..", "docs", "screenshots");
const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 375, height: 812 },
] as const;

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
  const context = await browser.newContext({ baseURL: base, colorScheme: "light", locale: "en-US" });
  const page = await context.newPage();
  await page.goto("/en/sign-in", { waitUntil: "networkidle" });
  await page.getByLabel("E-mail").fill("admin@example.com");
  await page.getByLabel("Password").fill("admin-demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/en\/dashboard$/);
  const request = context.request;

  const meshes = await json<{ items: { id: string }[] }>(request, "/api/my/meshes");
  const meshId =
    meshes.items[0]?.id ??
    (
      await json<{ id: string }>(request, "/api/my/meshes", {
        data: { name: "Kitchen crew", slug: `kitchen-crew-${Date.now().toString(36)}` },
      })
    ).id;
  await json(request, `/api/my/meshes/${meshId}/invites`, { data: {} });
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

  const pages: [string, string][] = [
    ["home", "/en"],
    ["mesh", `/en/dashboard/meshes/${meshId}`],
    ["mesh-live", `/en/dashboard/meshes/${meshId}/live`],
    ["settings", "/en/dashboard/settings"],
    ["engine", "/en/engine"],
    ["jobs", "/en/engine/jobs"],
    ...(jobId ? ([["job", `/en/engine/jobs/${jobId}`]] as [string, string][]) : []),
    ["pipeline-dashboard", "/en/pipelines/review-analytics"],
    ...(executionId
      ? ([["report", `/en/pipelines/review-analytics/report?execution=${executionId}`]] as [string, string][])
      : []),
    ["admin", "/en/admin"],
    ["audit", "/en/admin/audit"],
    ["api-reference", "/en/api-reference"],
  ];
  await mkdir(out, { recursive: true });
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const [name, url] of pages) {
      await page.goto(url, { waitUntil: "networkidle" });
      await page.waitForTimeout(500); // charts take their size on the next frame
      await page.screenshot({ path: path.join(out, `${name}-${size.name}.png`) });
      process.stdout.write(`${name}-${size.name}.png\n`);
    }
  }
} finally {
  await browser.close();
}
