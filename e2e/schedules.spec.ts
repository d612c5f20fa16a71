import type { APIRequestContext, Page } from "@playwright/test";
import { analyseFromPage } from "./analyse";
import { expect, test } from "./fixtures";

// Monitoring schedules in the engine's pages (docs/review-engine.md, "Monitoring"): created over REST
// with an API key, as clients do; every request goes to the servers of playwright.config.ts.

/** Signs the demo administrator in and creates an API key named `name` in the page; returns the key (shown once). */
async function adminKey(page: Page, name: string): Promise<string> {
  await page.goto("/en/sign-in", { waitUntil: "networkidle" });
  await page.getByLabel("E-mail").fill("admin@example.com");
  await page.getByLabel("Password").fill("admin-demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/, { timeout: 20_000 });
  await page.goto("/en/engine/api-keys");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const key = (await page.getByTestId("created-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^rk_[A-Za-z0-9]{8}_/);
  return key;
}

/** POST /api/schedules with the key; returns the new schedule's id. */
async function createSchedule(request: APIRequestContext, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await request.post("/api/schedules", { headers: { authorization: `Bearer ${key}` }, data: body });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

const target = (review_limit: number) => ({
  platform_id: "p-0003",
  scraper_version: "v2",
  scraper_variant: "json",
  review_limit,
});

test("an admin finds a schedule created over REST, pauses and resumes it after confirmations, and deletes it back to the list", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const tag = Date.now().toString(36);
  const key = await adminKey(page, `e2e-schedules-${tag}`);
  const auth = { authorization: `Bearer ${key}` };
  const name = `e2e schedule ${tag}`;
  // 06:00 UTC on 1 January: no slot comes due while the test runs, so it has no runs.
  const id = await createSchedule(request, key, {
    name,
    requester_client_id: "e2e-schedules",
    targets: [target(10)],
    cron: "0 6 1 1 *",
    mode: "new_only",
    stop_after_known: 5,
  });

  // The engine's navigation leads to the list; the search finds the schedule by its name.
  await page
    .getByRole("navigation", { name: "Review engine" })
    .getByRole("link", { name: "Schedules", exact: true })
    .click();
  await expect(page).toHaveURL(/\/en\/engine\/schedules$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Schedules");
  await page.getByRole("searchbox", { name: "Search" }).fill(name);
  const row = page.locator(`tr[data-schedule-id="${id}"]`);
  await expect(row).toBeVisible();
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(row).toContainText("0 6 1 1 *");
  await expect(row).toContainText("UTC");
  await expect(row).toContainText("New reviews only");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("e2e-schedules");

  await row.getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/en/engine/schedules/${id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Schedule");
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  const status = page.getByTestId("schedule-status");
  await expect(status).toHaveText("Active");
  await expect(page.getByText("p-0003")).toBeVisible();
  await expect(page.getByText("up to 10 reviews")).toBeVisible();
  await expect(page.getByText("stops after 5 known reviews in a row")).toBeVisible();
  // No run yet: the page says when the first one is.
  await expect(page.getByTestId("schedule-no-runs")).toContainText("No runs yet. First run:");
  await expect(page.getByTestId("schedule-no-runs").locator("time")).toHaveAttribute(
    "datetime",
    /^\d{4}-01-01T06:00:00\.000Z$/,
  );

  // Pause: a confirmation first; keeping it as it is changes nothing.
  await page.getByRole("button", { name: "Pause schedule" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("No run starts until it is resumed.");
  await page.getByRole("button", { name: "Keep it as it is" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(status).toHaveText("Active");
  await page.getByRole("button", { name: "Pause schedule" }).click();
  await page.getByRole("button", { name: "Yes, pause it" }).click();
  await expect(status).toHaveText("Paused");
  await expect(page.getByText("none while paused")).toBeVisible();
  const paused = (await (await request.get(`/api/schedules/${id}`, { headers: auth })).json()) as { status: string };
  expect(paused.status).toBe("paused");

  // Resume, after its own confirmation.
  await page.getByRole("button", { name: "Resume schedule" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("slots missed while it was paused are not run");
  await page.getByRole("button", { name: "Yes, resume it" }).click();
  await expect(status).toHaveText("Active");
  await expect(page.getByRole("button", { name: "Pause schedule" })).toBeVisible();

  // Delete: confirmed, then back on the list, where the search no longer finds it.
  await page.getByRole("button", { name: "Delete schedule" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Its past runs stay as batches.");
  await page.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(page).toHaveURL(/\/en\/engine\/schedules$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Schedules");
  await page.getByRole("searchbox", { name: "Search" }).fill(name);
  await expect(page.getByText("No schedule matches the search or the filter.")).toBeVisible();
  expect((await request.get(`/api/schedules/${id}`, { headers: auth })).status()).toBe(404);
});

test("a schedule's run is charted as new, updated and unchanged reviews and links to its batch; both are analysed from their pages", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);
  const key = await adminKey(page, `e2e-schedule-runs-${tag}`);
  const auth = { authorization: `Bearer ${key}` };
  const name = `e2e schedule runs ${tag}`;
  // An interval schedule's first slot is now: a worker runs it within a poll.
  const id = await createSchedule(request, key, {
    name,
    requester_client_id: "e2e-schedules",
    targets: [target(15)],
    interval_seconds: 3_600,
    mode: "new_only",
  });

  type Run = {
    batch_id: string;
    status: string;
    finished_jobs: number;
    total_jobs: number;
    changes: { new: number; updated: number; unchanged: number } | null;
  };
  let run: Run | undefined;
  await expect(async () => {
    const detail = (await (await request.get(`/api/schedules/${id}`, { headers: auth })).json()) as { runs: Run[] };
    run = detail.runs[0];
    expect(run?.status).toBe("completed");
    expect(run?.changes).not.toBeNull();
  }).toPass({ timeout: 100_000 });
  const done = run as Run;
  // A new key has collected nothing before: every review of its first run is new.
  expect(done.changes?.new).toBeGreaterThan(0);

  await page.goto(`/en/engine/schedules/${id}`);
  await expect(page.getByText("every hour")).toBeVisible();
  const chart = page.getByTestId("schedule-chart");
  await expect(chart).toBeVisible();
  await expect(chart.locator("svg .recharts-bar-rectangle").first()).toBeVisible();
  await expect(chart.locator(".recharts-legend-item-text")).toHaveText(["New", "Updated", "Unchanged"]);

  const row = page.locator(`tr[data-batch-id="${done.batch_id}"]`);
  await expect(row).toContainText("Completed");
  await expect(row).toContainText(`Finished: ${done.finished_jobs} of ${done.total_jobs}`);
  await expect(row.locator("td").nth(4)).toHaveText(String(done.changes?.new));
  await row.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/en/engine/batches/${done.batch_id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Batch");

  // "Analyse" on the batch and on the schedule: a run over exactly that data, followed on its page.
  const analyse = async (input: Record<string, unknown>) => {
    const execution = await analyseFromPage(page);
    expect(execution.input).toMatchObject(input);
    // The run's reviews are the batch's: every one of its first run was new.
    expect(execution.review_count).toBe(done.changes?.new);
  };
  await analyse({ batch_ids: [done.batch_id] });
  await page.goto(`/en/engine/schedules/${id}`);
  await analyse({ batch_ids: [done.batch_id] });

  // It would run again in an hour: delete it (its run stays as a batch).
  const deleted = await request.delete(`/api/schedules/${id}`, { headers: auth });
  expect(deleted.status(), await deleted.text()).toBe(200);
  expect((await request.get(`/api/batches/${done.batch_id}`, { headers: auth })).status()).toBe(200);
});
