import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./admin-fixtures";
import { layoutProblems } from "./page-checks";

// Issue 46, point 5: an administrator opens the reply drafts of a run, edits one, approves it and
// sees its state, on a phone's width.
test.use({ storageState: async ({ adminState }, use) => use(adminState), viewport: { width: 375, height: 800 } });

/** A succeeded review-analytics run with reviews (the demo data has one of the administrator). */
async function runWithReviews(page: Page): Promise<string> {
  const runs = await page.request.get("/api/pipelines/review-analytics/executions?status=succeeded&pageSize=100");
  expect(runs.ok(), await runs.text()).toBe(true);
  const id =
    ((await runs.json()) as { items: { id: string; review_count: number | null }[] }).items.find(
      (r) => (r.review_count ?? 0) > 0,
    )?.id ?? "";
  expect(id).not.toBe("");
  return id;
}

test("an administrator opens a run's reply drafts, edits one, approves it and sees its state", async ({ page }) => {
  test.setTimeout(60_000);
  const executionId = await runWithReviews(page);
  await page.goto(`/en/pipelines/review-analytics/executions/${executionId}`);
  await page.getByRole("link", { name: "Reply drafts" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Reply drafts" })).toBeVisible();
  await expect(page.getByTestId("reply-counts")).toContainText(/\d+ drafts?/);

  // Only drafts, so the one approved below leaves this list.
  await page.getByLabel("State").selectOption("draft");
  const first = page.getByTestId("reply-draft").first();
  await expect(first).toHaveAttribute("data-state", "draft");
  const draftId = (await first.getAttribute("data-draft-id")) ?? "";
  const card = page.locator(`[data-draft-id="${draftId}"]`);
  await expect(card.getByTestId("reply-state")).toHaveText("Draft");
  await expect(card.getByTestId("reply-text")).toHaveValue(/^(Dear|Hello|Hola|Hallo|Guten Tag)/);

  const text = `Thank you for telling us. We have changed how we seat guests. (${Date.now().toString(36)})`;
  await card.getByTestId("reply-text").fill(text);
  await card.getByRole("button", { name: "Save text" }).click();
  await expect(card.getByText(/edited/)).toBeVisible();
  await expect(card.getByTestId("reply-text")).toHaveValue(text);
  await expect.poll(() => layoutProblems(page, false), { timeout: 5_000 }).toEqual([]);

  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card).toHaveCount(0);
  await page.getByLabel("State").selectOption("approved");
  await expect(card.getByTestId("reply-state")).toHaveText("Approved");
  await expect(card.getByTestId("reply-text")).toHaveValue(text);
  await expect(card.getByTestId("reply-text")).toHaveAttribute("readonly", "");
  await expect(card.getByRole("button", { name: "Back to draft" })).toBeVisible();
  await expect(card.getByRole("button", { name: "Approve" })).toHaveCount(0);

  // The state is stored: a reload shows it, and the API says who changed it.
  await page.reload();
  await page.getByLabel("State").selectOption("approved");
  await expect(card.getByTestId("reply-state")).toHaveText("Approved");
  const api = await page.request.get(
    `/api/pipelines/review-analytics/executions/${executionId}/replies?state=approved&pageSize=100`,
  );
  expect(api.ok(), await api.text()).toBe(true);
  const item = ((await api.json()) as { items: { id: string; text: string; changed_by: string | null }[] }).items.find(
    (d) => d.id === draftId,
  );
  expect(item).toMatchObject({ text, changed_by: "user" });

  await expect.poll(() => layoutProblems(page, false), { timeout: 5_000 }).toEqual([]);
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(" ") ?? ""}`)).toEqual([]);
});

test("the dashboard shows the reply rate, the median response time and the replies per month", async ({ page }) => {
  const executionId = await runWithReviews(page);
  await page.goto(`/en/pipelines/review-analytics?execution=${executionId}`);
  const rate = page.locator('[data-widget-id="reply_rate"]');
  await expect(rate.getByRole("heading", { name: "Reply rate" })).toBeVisible();
  await expect(rate.getByTestId("stat-value")).toHaveText(/^\d+(\.\d)?%$/);
  const months = page.locator('[data-widget-id="replies_over_time"]');
  await expect(months.locator('[data-state="ready"]')).toBeVisible();
  await expect(months.locator(".recharts-legend-item-text")).toHaveText([
    "Reply rate (%)",
    "Median response time (days)",
  ]);
  // The median has a figure, or says there is none (a run without dated replies), never a made-up 0.
  await expect(page.locator('[data-widget-id="median_response_time"] [data-state]')).toHaveAttribute(
    "data-state",
    /^(ready|empty)$/,
  );
});
