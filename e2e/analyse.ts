import { expect, type Page } from "@playwright/test";

/** A review-analytics run as the REST API answers it. */
export type AnalysisRun = { input: Record<string, unknown>; review_count: number };

/**
 * Clicks the page's "Analyse" (job, batch, schedule or place page), follows the run's progress page
 * until it succeeds and returns the run as the API answers it (the page's session is an administrator's).
 */
export async function analyseFromPage(page: Page): Promise<AnalysisRun> {
  await page.getByRole("button", { name: "Analyse", exact: true }).click();
  await expect(page).toHaveURL(/\/en\/pipelines\/review-analytics\/executions\/[0-9a-f-]{36}$/);
  await expect(page.locator("[data-execution-id]")).toHaveAttribute("data-execution-status", "succeeded", {
    timeout: 60_000,
  });
  const id = page.url().split("/").pop() ?? "";
  const res = await page.request.get(`/api/pipelines/review-analytics/executions/${id}`);
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as AnalysisRun;
}
