import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { apiKeyClient, expect, test } from "./admin-fixtures";
import { sql } from "./database";
import { layoutProblems } from "./page-checks";

// Compare places (issue 46, point 6): three places of the demo platform collected by an API key's jobs,
// one run over all three (place_keys; the run form's "Compared venues" field), then the "Places compared" widget on
// the dashboard (grouped bars and the same numbers in a table, also at 375 px) and the report's
// "How the places compare" in English and Spanish, its figures linked to their reviews.
test.use({ storageState: async ({ adminState }, use) => use(adminState) });

async function a11y(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(" ") ?? ""}`);
}

/** A job of the key for a demo place, followed until it succeeded: its place key and name. */
async function collect(api: APIRequestContext, auth: Record<string, string>, platformId: string) {
  const created = await api.post("/api/scrape/platform-reviews", {
    headers: auth,
    data: {
      requester_client_id: "e2e-compare",
      platform_id: platformId,
      scraper_version: "v2",
      scraper_variant: "json",
      review_limit: 40,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const jobId = ((await created.json()) as { id: string }).id;
  await expect(async () => {
    const res = await api.get(`/api/jobs/${jobId}`, { headers: auth });
    expect(((await res.json()) as { job: { status: string } }).job.status).toBe("succeeded");
  }).toPass({ timeout: 90_000 });
  const { rows } = await sql(
    `SELECT DISTINCT r.place_key, j.place_name FROM reviews r JOIN job_reviews jr ON jr.review_id = r.id
       JOIN jobs j ON j.id = jr.job_id WHERE jr.job_id = $1`,
    [jobId],
  );
  expect(rows).toHaveLength(1);
  return { key: rows[0].place_key as string, name: rows[0].place_name as string };
}

test("a run over three places compares them on the dashboard and in the report", async ({ page }) => {
  test.setTimeout(240_000);
  // The run is an API key's, so the administrator's default run (other specs look at it) stays theirs.
  // Requests of the key alone, without the page's session cookie (a cookie-bearing POST needs the page's origin).
  const { auth, api } = await apiKeyClient(page, "e2e-compare");
  const places = await Promise.all(["p-0003", "p-0004", "p-0006"].map((id) => collect(api, auth, id)));

  // The run form's field: more places than a run compares is refused under the field.
  await page.goto("/en/pipelines/review-analytics/execute");
  const field = page.getByLabel("Compared venues");
  await expect(field).toHaveValue("");
  await field.fill(["a", "b", "c", "d", "e", "f", "g"].join("\n"));
  await page.getByRole("button", { name: "Run pipeline" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");

  const queued = await api.post("/api/pipelines/review-analytics/execute", {
    headers: auth,
    data: { input: { place_keys: places.map((p) => p.key) } },
  });
  expect(queued.ok(), await queued.text()).toBe(true);
  const executionId = ((await queued.json()) as { id: string }).id;
  await expect(async () => {
    const res = await api.get(`/api/pipelines/review-analytics/executions/${executionId}`, { headers: auth });
    expect(((await res.json()) as { status: string }).status).toBe("succeeded");
  }).toPass({ timeout: 60_000 });
  await api.dispose();
  // The places, biggest first: 40 reviews each, so by key.
  places.sort((a, b) => a.key.localeCompare(b.key));

  await page.goto(`/en/pipelines/review-analytics?execution=${executionId}`);
  const widget = page.locator('[data-widget-id="places_compared"]');
  await expect(widget.getByRole("heading", { name: "Places compared" })).toBeVisible();
  await expect(widget.locator('[data-state="ready"]')).toBeVisible();
  // One bar colour per place in the legend, by name, and bars drawn.
  await expect(widget.locator(".recharts-legend-item-text")).toHaveText(places.map((p) => p.name));
  await expect(widget.locator(".recharts-bar-rectangle").first()).toBeVisible();
  // The same numbers in a table: a column per place, a row per category, "score (mentions)" cells.
  const table = widget.getByTestId("places-compared-table");
  for (const p of places) await expect(table.getByRole("columnheader", { name: p.name })).toBeVisible();
  await expect(table.getByRole("rowheader", { name: "Reviews and rating" })).toBeVisible();
  await expect(table.locator("tbody tr[data-category] td").first()).toHaveText(
    /^(-?\d+ \(\d+ mentions?\)|no mentions)$/,
  );
  expect(await a11y(page), "dashboard accessibility").toEqual([]);
  // At 375 px the table turns into cards and nothing overflows the page.
  await page.setViewportSize({ width: 375, height: 800 });
  await widget.scrollIntoViewIfNeeded();
  await expect(widget.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect.poll(() => layoutProblems(page, true), { timeout: 5_000 }).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.goto(`/en/pipelines/review-analytics/report?execution=${executionId}`);
  const section = page.getByTestId("report-places-compared");
  await expect(section.getByRole("heading", { name: "How the places compare" })).toBeVisible();
  await expect(section.locator("li").first()).toContainText(`Compared: ${places[0]?.name ?? ""}`);
  await expect(section.getByText(/leads with a score of/).first()).toBeVisible();
  expect(await a11y(page), "report accessibility").toEqual([]);
  // A score leads to the reviews of its place and category.
  const score = section.locator('[data-evidence-ref$=".score"]').first();
  const shown = (await score.textContent()) ?? "";
  await score.click();
  await expect(page).toHaveURL(/\/evidence\/compare\.\d\.[a-z_]+\.score$/);
  await expect(page.getByRole("heading", { level: 2 })).toContainText(shown);
  await expect(page.locator('[data-testid="evidence-reviews"] tbody tr').first()).toBeVisible();

  await page.goto(`/es/pipelines/review-analytics/report?execution=${executionId}`);
  await expect(page.getByRole("heading", { name: "Cómo se comparan los locales" })).toBeVisible();
  await expect(page.getByTestId("report-places-compared").locator("li").first()).toContainText("Se comparan:");
});

test("a run over one place: the widget says a comparison needs two places, the report has no comparison", async ({
  page,
}) => {
  // The seeded demo run (prisma/seed-pipelines.ts) analysed one place.
  const { rows } = await sql(
    `SELECT id FROM pipeline_executions WHERE status = 'succeeded' AND review_count > 0
       AND jsonb_array_length(places) = 1 ORDER BY finished_at DESC LIMIT 1`,
  );
  expect(rows).toHaveLength(1);
  const id = rows[0].id as string;
  await page.goto(`/en/pipelines/review-analytics?execution=${id}`);
  const widget = page.locator('[data-widget-id="places_compared"]');
  await expect(widget.locator('[data-state="needs-places"]')).toHaveText(/A comparison needs two places or more/);
  await expect(widget.locator(".recharts-bar-rectangle")).toHaveCount(0);
  await page.goto(`/en/pipelines/review-analytics/report?execution=${id}`);
  await expect(page.locator('[data-report-format="v2"]')).toBeVisible();
  await expect(page.getByTestId("report-places-compared")).toHaveCount(0);
});
