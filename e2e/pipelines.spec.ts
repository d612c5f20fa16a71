import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./admin-fixtures";
import { layoutProblems } from "./page-checks";

// Pipelines are an administrator's pages: every test runs as the seeded administrator
// (admin@example.com, signed in once per worker by admin-fixtures.ts).
test.use({ storageState: async ({ adminState }, use) => use(adminState) });

/** WCAG 2 A/AA violations of the page (rule id and the first offending element). */
async function a11y(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(" ") ?? ""}`);
}

const KINDS = ["StatCard", "LineChart", "BarChart", "PieChart", "DataTable", "Heatmap"] as const;
const DEMO_PLACE = "Trattoria Demo (demo-trattoria)";

/** The place and the run the page shows, and its picker offering that place. */
async function expectNamedRunWithPicker(page: Page, executionId: string) {
  await expect(page.getByRole("heading", { level: 2, name: DEMO_PLACE })).toBeVisible();
  await expect(page.locator(`[data-shown-execution="${executionId}"]`)).toContainText(/Run of .* reviews analysed/);
  const picker = page.getByRole("form", { name: "Show another run" });
  await expect(picker.getByLabel("Place")).toHaveValue(/demo-trattoria$/);
  await expect(picker.getByLabel("Place").locator("option:checked")).toHaveText(DEMO_PLACE);
  await expect(picker.getByLabel("Run", { exact: true })).toHaveValue(executionId);
  await expect(picker.getByRole("button", { name: "Show" })).toBeVisible();
}

test("runs review-analytics from the page, watches the stages, then sees every widget kind and the report", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/en/dashboard");
  await page.getByRole("link", { name: "Pipelines", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Pipelines" })).toBeVisible();
  const card = page.locator('[data-pipeline-id="review-analytics"]');
  await card.getByRole("link", { name: "Run" }).click();

  // The form is generated from the run-request schema and starts empty (no example place filled in).
  await expect(page.getByLabel("Place")).toHaveValue("");
  await page.getByLabel("Place").fill("demo-trattoria");
  await expect(page.getByLabel("From")).toHaveAttribute("type", "date");
  await expect(page.getByLabel("Batches")).toBeVisible();
  await page.getByLabel("From").fill("2026-01-01");
  await page.getByLabel("To").fill("2026-12-31");
  await page.getByRole("button", { name: "Run pipeline" }).click();

  const run = page.locator("[data-execution-id]");
  await expect(run).toBeVisible();
  for (const stage of ["normalize", "classify", "route", "aggregate", "synthesize"]) {
    await expect(run.locator(`[data-stage="${stage}"]`)).toHaveAttribute("data-stage-status", "succeeded", {
      timeout: 45_000,
    });
  }
  await expect(run).toHaveAttribute("data-execution-status", "succeeded");
  await expect(run.getByText(/Total: \d{1,3}(,\d{3})* ms/)).toBeVisible();
  const executionId = (await run.getAttribute("data-execution-id")) ?? "";

  await run.getByRole("link", { name: "Open the dashboard" }).click();
  await expect(page).toHaveURL(/\/en\/pipelines\/review-analytics\?execution=/);
  await expectNamedRunWithPicker(page, executionId);
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
  // Severity in its own order in the legend, not alphabetical.
  await expect(page.locator('[data-widget-id="issues_by_team"] .recharts-legend-item-text')).toHaveText([
    "Critical",
    "High",
    "Medium",
    "Low",
  ]);
  // An average rating always with two decimals (4.00, never 4).
  await expect(page.locator('[data-widget-id="average_rating"] [data-testid="stat-value"]')).toHaveText(
    /^[1-5]\.\d\d★$/,
  );
  // A share in the locale's one percent format (en "58.3%"), as the report and its narrative write it.
  await expect(page.locator('[data-widget-id="positive_share"] [data-testid="stat-value"]')).toHaveText(
    /^\d{1,3}(\.\d)?%$/,
  );
  expect(await a11y(page), "dashboard accessibility").toEqual([]);

  // The report tab keeps the chosen run.
  await page.getByRole("link", { name: "Report", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/en/pipelines/review-analytics/report\\?execution=${executionId}`));
  await expectNamedRunWithPicker(page, executionId);
  await expect(page.locator('[data-report-format="v2"]')).toBeVisible();
  for (const heading of [
    "Executive summary",
    "Risk scorecard",
    "Complaint topics",
    "Action matrix",
    "Tracking KPIs",
    "Strengths to protect",
  ]) {
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
  }
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  expect(await a11y(page), "report accessibility").toEqual([]);
  // Printed on A4 (about 720 px between the margins): every table, the action matrix's effort and
  // timeframe included, fits the page; nothing is cut.
  await page.emulateMedia({ media: "print" });
  await page.setViewportSize({ width: 720, height: 1000 });
  await expect.poll(() => layoutProblems(page, false), { timeout: 5_000 }).toEqual([]);
  const timeframe = await page.getByRole("columnheader", { name: "Timeframe" }).boundingBox();
  expect(timeframe && timeframe.x + timeframe.width).toBeLessThanOrEqual(720);
  await page.emulateMedia({ media: "screen" });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Every figure of the narrative leads to the reviews it counts: the number of reviews analysed.
  const figure = page.locator('.report-section [data-evidence-ref="reviews"]').first();
  const shown = (await figure.textContent()) ?? "";
  expect(shown).toMatch(/^[1-9][\d,]*$/);
  await figure.click();
  await expect(page).toHaveURL(
    new RegExp(`/en/pipelines/review-analytics/executions/${executionId}/evidence/reviews$`),
  );
  await expect(page.getByTestId("evidence-summary")).toContainText(`${shown} reviews are counted in this figure.`);
  await expect(page.locator('[data-testid="evidence-reviews"] tbody tr')).toHaveCount(
    Math.min(25, Number(shown.replace(/,/g, ""))),
  );
  expect(await a11y(page), "evidence accessibility").toEqual([]);
  if (Number(shown.replace(/,/g, "")) > 25) {
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page.locator('[data-testid="evidence-reviews"] tbody tr').first()).toBeVisible();
    await expect(page.getByRole("link", { name: "First page" })).toBeVisible();
  }
  await page.getByRole("link", { name: /Back to the report/ }).click();
  await expect(page.locator('[data-report-format="v2"]')).toBeVisible();
  // A figure the report does not hold: the not-found page (streamed inside the pipelines layout).
  await page.goto(`/en/pipelines/review-analytics/executions/${executionId}/evidence/no.such.figure`);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();

  // The narrative is in the page's language (report.narratives), its figures still linked to their reviews.
  await page.goto(`/es/pipelines/review-analytics/report?execution=${executionId}`);
  const headline = page.locator(".report-headline");
  await expect(headline).toHaveText(/^[1-9][\d.]* reseñas: /);
  await expect(headline).not.toContainText("reviews");
  await expect(headline.locator('[data-evidence-ref="reviews"]')).toHaveText(/^[1-9][\d.]*$/);
  await page.goto(`/de/pipelines/review-analytics/report?execution=${executionId}`);
  await expect(headline).toHaveText(/^[1-9][\d.]* Bewertungen: /);
});

test("the dashboard shows the default run of its place, and the picker switches to another run", async ({ page }) => {
  await page.goto("/en/pipelines/review-analytics");
  // No run chosen: the administrator's newest run with reviews, named with its place.
  await expect(page.getByRole("heading", { level: 2, name: DEMO_PLACE })).toBeVisible();
  await expect(page.getByText("Your newest run with reviews is shown.")).toBeVisible();
  const picker = page.getByRole("form", { name: "Show another run" });
  const runSelect = picker.getByLabel("Run", { exact: true });
  const shown = await runSelect.inputValue();
  const options = await runSelect
    .locator("option")
    .evaluateAll((list) => list.map((o) => (o as HTMLOptionElement).value));
  expect(options[0]).toBe(shown);
  // Another run of the place, when there is one (the legacy v1 run of the demo data always is).
  const other = options.find((id) => id !== shown);
  expect(other).toBeTruthy();
  await runSelect.selectOption(other ?? "");
  await picker.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`\\?execution=${other}`));
  await expect(page.getByText("The run you chose is shown.")).toBeVisible();
  await expect(page.locator(`[data-shown-execution="${other}"]`)).toBeVisible();
  expect(await a11y(page), "picker accessibility").toEqual([]);
});

test("history shows the stage-timing chart, and a legacy v1 report still renders", async ({ page }) => {
  await page.goto("/en/pipelines/review-analytics/executions");
  await expect(page.getByRole("heading", { name: "Stage timing" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Duration of each stage per run, in milliseconds" })).toBeVisible();
  expect(await a11y(page), "history accessibility").toEqual([]);
  // The demo data holds one legacy run, the oldest: it is on the last page.
  const next = page.getByRole("button", { name: "Next" });
  while ((await next.count()) > 0 && (await next.isEnabled())) await next.click();
  // Its run request is shown as labelled values (never JSON): "To 2025-11-30".
  const legacy = page.locator("tr", { hasText: "2025-11-30" });
  await legacy.getByRole("link", { name: "Report" }).click();
  await expect(page.locator('[data-report-format="v1"]')).toBeVisible();
  await expect(page.getByText("Legacy report (v1): shown with its original sections.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recommendations" })).toBeVisible();
  // A run older than stored places is named by the place of its input.
  await expect(page.getByRole("heading", { level: 2, name: "demo-trattoria", exact: true })).toBeVisible();
  expect(await a11y(page), "legacy report accessibility").toEqual([]);
});

test("the execute form shows the schema's errors, in Spanish too", async ({ page }) => {
  await page.goto("/es/pipelines/review-analytics/execute");
  await page.getByLabel("Lugar").fill("");
  await page.getByRole("button", { name: "Ejecutar pipeline" }).click();
  await expect(page.getByText("Indica un lugar, al menos un trabajo o al menos un lote.")).toBeVisible();
  // A place no readable job collected answers as absent.
  await page.getByLabel("Lugar").fill("no-such-place-anywhere");
  await page.getByRole("button", { name: "Ejecutar pipeline" }).click();
  await expect(page.getByText("Ningún trabajo que puedas leer recopiló reseñas de este lugar.")).toBeVisible();
});
