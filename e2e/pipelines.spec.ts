import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signUp, test, uniqueEmail } from "./fixtures";

/** WCAG 2 A/AA violations of the page (rule id and the first offending element). */
async function a11y(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(" ") ?? ""}`);
}

const KINDS = ["StatCard", "LineChart", "BarChart", "PieChart", "DataTable", "Heatmap"] as const;

test("runs review-analytics from the page, watches the stages, then sees every widget kind and the report", async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, "Pia Pipeline", uniqueEmail("pipe"), "a-long-password-7");
  await page.getByRole("link", { name: "Pipelines", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Pipelines" })).toBeVisible();
  const card = page.locator('[data-pipeline-id="review-analytics"]');
  await card.getByRole("link", { name: "Run" }).click();

  // The form is generated from the run-request schema; the demo place is filled in.
  await expect(page.getByLabel("Place")).toHaveValue("demo-trattoria");
  await expect(page.getByLabel("From")).toHaveAttribute("type", "date");
  await page.getByLabel("From").fill("2026-01-01");
  await page.getByLabel("To").fill("2026-12-31");
  await page.getByRole("button", { name: "Run pipeline" }).click();

  const run = page.locator("[data-execution-id]");
  await expect(run).toBeVisible();
  for (const stage of ["normalize", "classify", "route", "aggregate", "synthesize"]) {
    await expect(run.locator(`[data-stage="${stage}"]`)).toHaveAttribute("data-stage-status", "succeeded", { timeout: 45_000 });
  }
  await expect(run).toHaveAttribute("data-execution-status", "succeeded");
  await expect(run.getByText(/Total: \d+ ms/)).toBeVisible();

  await run.getByRole("link", { name: "Open the dashboard" }).click();
  await expect(page).toHaveURL(/\/en\/pipelines\/review-analytics\?execution=/);
  for (const kind of KINDS) {
    await expect(page.locator(`[data-widget-kind="${kind}"] [data-state="ready"]`).first(), kind).toBeVisible();
  }
  // Drawn with data: chart shapes, heat-map cells with values, table rows, figures.
  await expect(page.locator('[data-widget-kind="LineChart"] .recharts-line-curve').first()).toBeVisible();
  await expect(page.locator('[data-widget-kind="BarChart"] .recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.locator('[data-widget-kind="PieChart"] .recharts-pie-sector').first()).toBeVisible();
  expect(await page.locator('[data-widget-id="weekday_hour"] td[title]').count()).toBe(7 * 24);
  await expect(page.locator('[data-widget-id="top_issues"] tbody tr').first()).toBeVisible();
  await expect(page.locator('[data-widget-id="total_reviews"] [data-testid="stat-value"]')).toHaveText(/^[1-9][\d,]*$/);
  expect(await a11y(page), "dashboard accessibility").toEqual([]);

  await page.getByRole("link", { name: "Report", exact: true }).click();
  await expect(page.locator('[data-report-format="v2"]')).toBeVisible();
  for (const heading of ["Executive summary", "Risk scorecard", "Action matrix", "Tracking KPIs", "Strengths to protect"]) {
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
  }
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  expect(await a11y(page), "report accessibility").toEqual([]);
});

test("history shows the stage-timing chart, and a legacy v1 report still renders", async ({ page }) => {
  await signUp(page, "Hugo History", uniqueEmail("hist"), "a-long-password-8");
  await page.goto("/en/pipelines/review-analytics/executions");
  await expect(page.getByRole("heading", { name: "Stage timing" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Duration of each stage per run, in milliseconds" })).toBeVisible();
  expect(await a11y(page), "history accessibility").toEqual([]);
  // The demo data holds one legacy run, the oldest: it is on the last page.
  const next = page.getByRole("button", { name: "Next" });
  while ((await next.count()) > 0 && (await next.isEnabled())) await next.click();
  const legacy = page.locator("tr", { hasText: '"to":"2025-11-30"' });
  await legacy.getByRole("link", { name: "Report" }).click();
  await expect(page.locator('[data-report-format="v1"]')).toBeVisible();
  await expect(page.getByText("Legacy report (v1): shown with its original sections.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recommendations" })).toBeVisible();
  expect(await a11y(page), "legacy report accessibility").toEqual([]);
});

test("the execute form shows the schema's errors, in Spanish too", async ({ page }) => {
  await signUp(page, "Eva Errores", uniqueEmail("err"), "a-long-password-9");
  await page.goto("/es/pipelines/review-analytics/execute");
  await page.getByLabel("Lugar").fill("");
  await page.getByRole("button", { name: "Ejecutar pipeline" }).click();
  await expect(page.getByText("Indica un lugar o al menos un trabajo.")).toBeVisible();
});
