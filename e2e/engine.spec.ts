import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const demoPlatform = `http://127.0.0.1:${process.env.E2E_DEMO_PLATFORM_PORT ?? "4500"}`;

/** Signs the demo administrator in and creates an API key named `name` in the page; returns the key (shown once). */
async function adminKey(page: Page, name: string): Promise<string> {
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail").fill("admin@example.com");
  await page.getByLabel("Password").fill("admin-demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
  await page.goto("/en/engine/api-keys");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const key = (await page.getByTestId("created-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^rk_[A-Za-z0-9]{8}_/);
  return key;
}

test("an admin creates an API key, a batch submitted over REST reaches 100 % in the page, and by-version shows the failing layout", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const name = `e2e-${Date.now().toString(36)}`;
  const keyText = await adminKey(page, name);
  await expect(page.getByRole("cell", { name })).toBeVisible();

  const res = await request.post("/api/scrape/platform-reviews/batch", {
    headers: { authorization: `Bearer ${keyText}` },
    data: {
      name,
      requester_client_id: "e2e-client",
      jobs: [
        // The layout-1 browser scraper on a layout-2 page: layout_changed.
        {
          place_url: `${demoPlatform}/places/p-0001?layout=2`,
          scraper_version: "v1",
          scraper_variant: "default",
          review_limit: 5,
        },
        {
          place_url: `${demoPlatform}/places/p-0002?layout=2`,
          scraper_version: "v1",
          scraper_variant: "default",
          review_limit: 5,
        },
        { platform_id: "p-0003", scraper_version: "v2", scraper_variant: "json", review_limit: 5 },
      ],
    },
  });
  expect(res.status()).toBe(200);
  expect(res.headers()["ratelimit-policy"]).toMatch(/^"per-key";q=\d+;w=60$/);
  const batch = (await res.json()) as { id: string; total_jobs: number };
  expect(batch.total_jobs).toBe(3);

  await page.goto("/en/engine/batches");
  const bar = page.getByRole("progressbar", { name: `Progress of ${name}` });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute("data-percent", "100", { timeout: 120_000 });

  await page.goto("/en/engine");
  const v1 = page.locator('tr[data-version="v1/default"]');
  await expect(v1).toContainText("Layout changed", { timeout: 15_000 });
});

test("a signed-in user who is not an admin cannot enter the engine console", async ({ page }) => {
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail").fill("user@example.com");
  await page.getByLabel("Password").fill("user-demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
  // As for /admin: the 403 page with HTTP status 403, on every page of the console.
  for (const path of ["/en/engine", "/en/engine/batches", "/en/engine/schedules"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(403);
    await expect(page.getByRole("navigation", { name: "Review engine" })).toHaveCount(0);
  }
});

test("a job's reviews are paged in its page and downloaded whole as CSV; the REST cursor reads the same set", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const key = await adminKey(page, `e2e-out-${Date.now().toString(36)}`);
  const auth = { authorization: `Bearer ${key}` };

  const created = await request.post("/api/scrape/platform-reviews", {
    headers: auth,
    data: {
      requester_client_id: "e2e-out",
      platform_id: "p-0003",
      scraper_version: "v2",
      scraper_variant: "json",
      review_limit: 120,
    },
  });
  expect(created.status()).toBe(200);
  const jobId = ((await created.json()) as { id: string }).id;
  let count = 0;
  await expect(async () => {
    const job = (await (await request.get(`/api/jobs/${jobId}`, { headers: auth })).json()) as {
      job: { status: string; review_count: number };
    };
    expect(job.job.status).toBe("succeeded");
    count = job.job.review_count;
  }).toPass({ timeout: 90_000 });
  expect(count).toBe(120);

  // Through the cursor: 120 reviews in pages of 50.
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await request.get(`/api/jobs/${jobId}/reviews?limit=50${cursor ? `&cursor=${cursor}` : ""}`, {
      headers: auth,
    });
    const body = (await res.json()) as { items: { id: string }[]; next_cursor: string | null };
    ids.push(...body.items.map((r) => r.id));
    cursor = body.next_cursor;
  } while (cursor);
  expect(new Set(ids).size).toBe(120);

  // The jobs table names each job by its id's random tail with the full id as tooltip; copying gives
  // the full id. The job's page shows it whole, and its timeline as labelled details, never JSON.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
  await page.goto("/en/engine/jobs");
  await page.getByLabel("Search").fill("e2e-out");
  const idCell = page.locator(`code.id[title="${jobId}"]`);
  await expect(idCell).toHaveText(`…${jobId.slice(-8)}`);
  await page
    .getByRole("button", { name: `Copy: ${jobId}` })
    .first()
    .click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(jobId);
  await idCell.click();
  await expect(page).toHaveURL(new RegExp(`/en/engine/jobs/${jobId}$`));
  await expect(page.locator("code.id-full", { hasText: jobId })).toBeVisible();
  const timeline = page.getByRole("list", { name: "Timeline" });
  await expect(timeline.locator("dt", { hasText: "Attempt" }).first()).toBeVisible();
  await expect(timeline).not.toContainText("{");
  await expect(page.getByText("Reviews 1–50 of 120")).toBeVisible();
  // The coverage block: against the platform's total, and why it stopped.
  await expect(page.getByText(/^120 of \d+ reviews \(\d+(\.\d)?%\)$/)).toBeVisible();
  await expect(page.getByText("the review limit was reached")).toBeVisible();
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.getByText("Reviews 51–100 of 120")).toBeVisible();
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.getByText("Reviews 101–120 of 120")).toBeVisible();
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
  await page.getByRole("button", { name: "Previous page" }).click();
  await expect(page.getByText("Reviews 51–100 of 120")).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^job-${jobId}-reviews-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const path = await download.path();
  const { readFile } = await import("node:fs/promises");
  const { parse } = await import("csv-parse/sync");
  const rows = parse(await readFile(path), { columns: true, bom: true }) as { id: string }[];
  expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
});

test("a running job is cancelled from its page after a confirmation, then retried to success", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const key = await adminKey(page, `e2e-cancel-${Date.now().toString(36)}`);

  // Every platform request takes 3 s (two pages): the run is still reading when it is cancelled.
  const created = await request.post("/api/scrape/platform-reviews", {
    headers: { authorization: `Bearer ${key}` },
    data: {
      requester_client_id: "e2e-cancel",
      place_url: `${demoPlatform}/places/p-0005?latency=3000`,
      scraper_version: "v2",
      scraper_variant: "json",
      review_limit: 120,
    },
  });
  expect(created.status()).toBe(200);
  const jobId = ((await created.json()) as { id: string }).id;
  await page.goto(`/en/engine/jobs/${jobId}`);
  await expect(page.locator(".badge").first()).toHaveText("Running", { timeout: 30_000 });

  await page.getByRole("button", { name: "Cancel job" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Its run stops within a few seconds");
  await page.getByRole("button", { name: "Yes, cancel the job" }).click();
  await expect(page.locator(".badge").first()).toHaveText("Cancelled", { timeout: 15_000 });

  await page.getByRole("button", { name: "Retry job" }).click();
  await page.getByRole("button", { name: "Yes, run it again" }).click();
  await expect(page.locator(".badge").first()).not.toHaveText("Cancelled", { timeout: 10_000 });
  await expect(page.locator(".badge").first()).toHaveText("Succeeded", { timeout: 60_000 });
  await expect(page.getByText("Reviews 1–50 of 120")).toBeVisible();
});

test("cancelling a batch, promoting and deprecating a scraper version and revoking an API key each ask first, saying what they do", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const keyName = `e2e-confirm-${Date.now().toString(36)}`;
  const key = await adminKey(page, keyName);
  // Slow jobs (3 s per platform request), so the batch is still open when it is cancelled.
  const created = await request.post("/api/scrape/platform-reviews/batch", {
    headers: { authorization: `Bearer ${key}` },
    data: {
      requester_client_id: "e2e-confirm",
      jobs: [1, 2, 3].map(() => ({
        place_url: `${demoPlatform}/places/p-0006?latency=3000`,
        scraper_version: "v2",
        scraper_variant: "json",
        review_limit: 150,
      })),
    },
  });
  expect(created.status()).toBe(200);
  const batchId = ((await created.json()) as { id: string }).id;
  await page.goto(`/en/engine/batches/${batchId}`);
  await page.getByRole("button", { name: "Cancel batch" }).click();
  // One or several jobs may still be queued (a plural either way), or none any more.
  await expect(page.getByRole("alertdialog")).toContainText(
    /queued jobs? (is|are) cancelled and will not run|No job is queued/,
  );
  await page.getByRole("button", { name: "Keep the batch" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await page.getByRole("button", { name: "Cancel batch" }).click();
  await page.getByRole("button", { name: "Yes, cancel the batch" }).click();
  await expect(page.locator(".badge").first()).toHaveText("Cancelled", { timeout: 15_000 });

  // A version of its own (traffic 0), registered over REST: promoting it is only asked, never done, so
  // the shipped routing other tests rely on stays as it is.
  const version = `e2e-${Date.now().toString(36)}`;
  // As the signed-in administrator (the page's session; the key made above has no admin scope).
  const r = await page.request.post("/api/admin/scrapers", {
    headers: { origin: new URL(page.url()).origin },
    data: { version, implementation: "noop", traffic_percent: 0 },
  });
  expect(r.status(), await r.text()).toBe(200);
  await page.goto("/en/engine/scrapers");
  const row = page.locator(`tr[data-version="${version}/default"]`);
  await row.getByRole("button", { name: "Promote" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("every other version gets 0%");
  await page.getByRole("button", { name: "Leave it as it is" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(row).not.toContainText("Promoted");
  await row.getByRole("button", { name: "Deprecate" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("It gets no more traffic and leaves routing");
  await page.getByRole("button", { name: "Yes, deprecate it" }).click();
  await expect(row).toContainText("Deprecated", { timeout: 10_000 });

  // Revoking the API key: asked first (kept, it still works), then revoked (its clients get 401).
  const listBatches = () => request.get("/api/batches", { headers: { authorization: `Bearer ${key}` } });
  await page.goto("/en/engine/api-keys");
  const keyRow = page.getByRole("row").filter({ hasText: keyName });
  await keyRow.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Every client using it is refused at once (401)");
  await page.getByRole("button", { name: "Keep the key" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  expect((await listBatches()).status()).toBe(200);
  await keyRow.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("button", { name: "Revoke the key" }).click();
  await expect(keyRow).toContainText("Revoked", { timeout: 10_000 });
  expect((await listBatches()).status()).toBe(401);
});
