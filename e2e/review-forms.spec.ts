import type { Page } from "@playwright/test";
import { expect, test } from "./admin-fixtures";
import { analyseFromPage } from "./analyse";
import { baseURL } from "./playwright.config";

// Collect and analyse from the pages (issue 46, points 1 and 2): the forms submit through the API's own
// procedures and show its errors by field; "Analyse" runs review-analytics over the page's data; a run
// over no reviews says why. Every test is the seeded administrator against the e2e servers.
test.use({ storageState: async ({ adminState }, use) => use(adminState) });

/** The job as the API answers it (the page's session is an administrator's). */
async function jobOf(page: Page, id: string) {
  const res = await page.request.get(`/api/jobs/${id}`);
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { job: { status: string; place_name: string | null; platform_id: string } }).job;
}

test("a job made in the form, with the API's errors first, is followed on its page, then analysed to its run", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto("/en/engine/jobs");
  await page.getByRole("link", { name: "New job" }).click();
  await expect(page).toHaveURL(/\/en\/engine\/jobs\/new$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New job");

  // No place and a language that is not a code: the API's own errors, each under its field.
  const form = page.getByRole("form", { name: "New job" });
  await form.getByLabel("Language").fill("english");
  await form.getByRole("button", { name: "Create job" }).click();
  await expect(form.getByText("Give a place: its platform id or its address.")).toBeVisible();
  await expect(form.getByLabel("Platform id", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("Write a language code such as en or pt-BR.")).toBeVisible();
  await expect(page).toHaveURL(/\/en\/engine\/jobs\/new$/);

  await form.getByLabel("Language").fill("");
  // p-0003 has the layout every scraper version reads (every third place has the other one).
  await form.getByLabel("Platform id", { exact: true }).fill("p-0003");
  await form.getByLabel("Reviews at most").fill("8");
  await form.getByLabel("Order").selectOption("lowest_rating");
  await form.getByRole("button", { name: "Create job" }).click();
  await expect(page).toHaveURL(/\/en\/engine\/jobs\/[0-9a-f-]{36}$/);
  const jobId = page.url().split("/").pop() ?? "";
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Job");
  await expect(page.locator('[data-status="succeeded"]').first()).toBeVisible({ timeout: 60_000 });
  const job = await jobOf(page, jobId);
  expect(job.place_name).toBeTruthy();
  // The place by its name, the platform id beside it.
  const heading = page.getByRole("heading", { level: 2 }).first();
  await expect(heading).toContainText(job.place_name ?? "");
  await expect(heading).toContainText("p-0003");

  // The jobs list names the place too.
  await page.goto("/en/engine/jobs");
  await expect(
    page
      .locator("tbody tr")
      .filter({ hasText: job.place_name ?? "" })
      .first(),
  ).toBeVisible();

  // The job's place: analysed whole at once, or through the run form prefilled with it.
  await page.goto(`/en/engine/jobs/${jobId}`);
  await expect(page.getByRole("button", { name: `Analyse all of ${job.place_name ?? ""}` })).toBeVisible();
  await page.getByRole("link", { name: "Choose dates first…" }).click();
  await expect(page).toHaveURL(/\/en\/pipelines\/review-analytics\/execute\?place_key=/);
  await expect(page.getByLabel("Place")).toHaveValue(/p-0003$/);
  await expect(page.getByLabel("Platform origin")).toHaveValue(/^http:\/\/(127\.0\.0\.1|localhost):\d+$/);

  await page.goto(`/en/engine/jobs/${jobId}`);
  const execution = await analyseFromPage(page);
  await expect(page.getByTestId("execution-status")).toHaveText("Succeeded");
  // Exactly that job's reviews.
  expect(execution.input).toEqual({ job_ids: [jobId], max_reviews: 100_000 });
  expect(execution.review_count).toBe(8);
  await expect(page.locator("[data-execution-id]").getByRole("link", { name: "Open the report" })).toBeVisible();

  // The place's name leads to its page, whose Analyse reads every review of the place.
  await page.goto(`/en/engine/jobs/${jobId}`);
  await page
    .getByRole("heading", { level: 2 })
    .first()
    .getByRole("link", { name: job.place_name ?? "" })
    .click();
  await expect(page).toHaveURL(/\/en\/engine\/places\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Place");
  const placeRun = await analyseFromPage(page);
  expect(placeRun.input).toMatchObject({ place_key: expect.stringMatching(/p-0003$/) });
  expect(placeRun.review_count).toBeGreaterThanOrEqual(8);
});

test("a schedule made in the form from a place found by name goes to its page", async ({ page }) => {
  test.setTimeout(90_000);
  // A place the engine knows, with its name (the page-matrix's and other tests' jobs read these).
  const made = await page.request.post("/api/scrape", {
    data: { requester_client_id: "e2e-forms", platform_id: "p-0004", review_limit: 3 },
    headers: { origin: baseURL },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const madeId = ((await made.json()) as { id: string }).id;
  await expect.poll(async () => (await jobOf(page, madeId)).place_name, { timeout: 60_000 }).toBeTruthy();
  const placeName = (await jobOf(page, madeId)).place_name ?? "";

  await page.goto("/en/engine/schedules");
  await page.getByRole("link", { name: "New schedule" }).click();
  await expect(page).toHaveURL(/\/en\/engine\/schedules\/new$/);
  const form = page.getByRole("form", { name: "New schedule" });
  const name = `e2e form schedule ${Date.now().toString(36)}`;
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Find a known place").fill(placeName.slice(0, 6));
  await form.getByRole("button", { name: placeName }).first().click();
  await expect(form.getByLabel("Platform id", { exact: true })).toHaveValue("p-0004");
  await form.getByLabel("Cadence").selectOption("cron");
  // A cron expression the API refuses, shown under its field.
  await form.getByLabel("Cron expression").fill("every day");
  await form.getByRole("button", { name: "Create schedule" }).click();
  await expect(form.getByText("This is not a cron expression (five fields, such as 0 6 * * *).")).toBeVisible();
  await form.getByLabel("Cron expression").fill("0 6 1 1 *");
  await form.getByRole("button", { name: "Create schedule" }).click();
  await expect(page).toHaveURL(/\/en\/engine\/schedules\/[0-9a-f-]{36}$/);
  const scheduleId = page.url().split("/").pop() ?? "";
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  await expect(page.getByText("p-0004")).toBeVisible();
  await expect(page.getByTestId("schedule-status")).toHaveText("Active");
  // No run yet: nothing to analyse.
  await expect(page.getByText("Analyse appears once the schedule has run.")).toBeVisible();
  await page.request.delete(`/api/schedules/${scheduleId}`, { headers: { origin: baseURL } });
});

test("a run over no reviews is not a plain success: it says which filter left nothing", async ({ page }) => {
  test.setTimeout(60_000);
  // The run form starts empty; a link may fill it in (the demo place, a range with no review).
  await page.goto("/en/pipelines/review-analytics/execute");
  await expect(page.getByLabel("Place")).toHaveValue("");
  await page.goto("/en/pipelines/review-analytics/execute?place_key=demo-trattoria&from=2001-01-01&to=2001-01-31");
  await expect(page.getByLabel("Place")).toHaveValue("demo-trattoria");
  await page.getByRole("button", { name: "Run pipeline" }).click();
  const run = page.locator("[data-execution-id]");
  await expect(run).toHaveAttribute("data-execution-status", "succeeded", { timeout: 45_000 });
  await expect(page.getByTestId("execution-status")).toHaveText("Nothing analysed");
  const notice = run.locator('[data-state="no-reviews"]');
  await expect(notice).toHaveAttribute("data-reason", "none_in_date_range");
  await expect(notice).toContainText("Reviews exist, but none was published in the chosen dates.");
  await expect(run.getByRole("link", { name: "Open the report" })).toHaveCount(0);
});
