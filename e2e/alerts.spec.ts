import type { APIRequestContext, Page } from "@playwright/test";
import { apiKeyClient, expect, test } from "./admin-fixtures";
import { waitForMail } from "./mail";
import { baseURL } from "./playwright.config";

// Alerts from the pages (issue 46, point 4): an administrator adds an alert rule on a place's page,
// a later collection and its analysis (an API key's) fire it, the worker mails it through the suite's SMTP server, and
// the page shows the alert and its delivery; the rule is turned off and deleted after a confirmation.
test.use({ storageState: async ({ adminState }, use) => use(adminState) });

type Client = { api: APIRequestContext; auth: Record<string, string> };

/** A collection job of a demo place made through the REST API (by an API key, or the page's session); waits for its end. */
async function collect(client: Client | Page, body: Record<string, unknown>) {
  const api = "api" in client ? client.api : client.request;
  const headers = "api" in client ? client.auth : { origin: baseURL };
  const res = await api.post("/api/scrape", { data: { requester_client_id: "alerts-e2e", ...body }, headers });
  expect(res.ok(), await res.text()).toBe(true);
  const job = (await res.json()) as { id: string };
  let place: string | null = null;
  await expect
    .poll(
      async () => {
        const r = await api.get(`/api/jobs/${job.id}`, { headers });
        const j = ((await r.json()) as { job: { status: string; place_id: string | null } }).job;
        place = j.place_id;
        return j.status;
      },
      { timeout: 60_000 },
    )
    .toBe("succeeded");
  return { jobId: job.id, placeId: place as unknown as string };
}

/**
 * A demo place no job has read yet in this database (no other browser test collects p-0010 and above):
 * its reviews are new to the test, also on a retry or a second local run over the same database.
 */
async function unreadPlace(page: Page): Promise<string> {
  const read = new Set<string>();
  for (let n = 1; ; n++) {
    const res = await page.request.get(`/api/places?pageSize=100&page=${n}`);
    expect(res.ok(), await res.text()).toBe(true);
    const { items } = (await res.json()) as { items: { place_key: string }[] };
    for (const p of items) read.add(p.place_key.split(":").pop() ?? "");
    if (items.length < 100) break;
  }
  // Layout 1 (every third place, p-0002, p-0005, …, has the layout some scraper versions do not read)
  // and not a small place (every eighth).
  for (let n = 10; n <= 40; n++) {
    if (n % 3 === 2 || n % 8 === 0) continue;
    const id = `p-${String(n).padStart(4, "0")}`;
    if (!read.has(id)) return id;
  }
  throw new Error("every demo place from p-0010 on was read already: start from a fresh e2e database");
}

test("a rule added on a place's page fires on a later collection's analysis and arrives by e-mail", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const platformId = await unreadPlace(page);
  // The key's jobs and run: the administrator's default run, which other specs look at, stays theirs.
  const key = await apiKeyClient(page, "e2e-alerts");
  const first = await collect(key, { platform_id: platformId, review_limit: 2, sort: "newest" });
  await page.goto(`/en/engine/places/${first.placeId}`);
  const panel = page.getByTestId("alert-rules");
  await expect(panel.getByText("No alert rules yet.")).toBeVisible();

  await panel.getByRole("button", { name: "Add an alert rule" }).click();
  const form = page.getByRole("form", { name: "Add an alert rule" });
  // Nowhere to send: the API's own error, under the webhook field.
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(form.getByText("Say where alerts go: a webhook, an e-mail address or a mesh.")).toBeVisible();

  await form.getByLabel("Alert when").selectOption("low_rating");
  await form.getByLabel("At or below").selectOption("2");
  // The demo platform's reviews are weeks to years old: count every one of them as new.
  await form.getByLabel("Published within (days)").fill("3650");
  await form.getByLabel("Name (optional)").fill("Bad reviews of the demo place");
  await form.getByLabel("E-mail address").fill(`alerts-${platformId}@example.test`);
  await form.getByRole("button", { name: "Add rule" }).click();
  const rule = panel.getByTestId("alert-rule");
  await expect(rule.getByRole("heading", { name: "Bad reviews of the demo place" })).toBeVisible();
  await expect(rule).toContainText("New reviews at or below 2 stars");
  await expect(rule).toContainText(`E-mail: alerts-${platformId}@example.test`);
  await expect(rule).toContainText("No alerts yet");

  // A later collection of the lowest ratings, then the key's analysis of the place.
  await collect(key, { platform_id: platformId, review_limit: 10, sort: "lowest_rating" });
  const place = (await (await key.api.get(`/api/places/${first.placeId}`, { headers: key.auth })).json()) as {
    place_key: string;
    origin: string;
  };
  const queued = await key.api.post("/api/pipelines/review-analytics/execute", {
    headers: key.auth,
    data: { input: { place_key: place.place_key, origin: place.origin } },
  });
  expect(queued.ok(), await queued.text()).toBe(true);
  const runId = ((await queued.json()) as { id: string }).id;
  await expect
    .poll(
      async () => {
        const res = await key.api.get(`/api/pipelines/review-analytics/executions/${runId}`, { headers: key.auth });
        return ((await res.json()) as { status: string }).status;
      },
      { timeout: 60_000 },
    )
    .toBe("succeeded");

  const mail = await waitForMail(`alerts-${platformId}@example.test`);
  expect(mail.subject).toMatch(/^New [12]-star review of /);
  expect(mail.text).toContain(`/en/pipelines/review-analytics/executions/${runId}`);

  await page.goto(`/en/engine/places/${first.placeId}`);
  const alerts = page.getByTestId("alert");
  await expect(alerts.first()).toBeVisible({ timeout: 20_000 });
  await expect(alerts.first().locator('[data-status="delivered"]')).toBeVisible({ timeout: 20_000 });
  await expect(alerts.first().getByRole("link", { name: "Evidence" })).toHaveAttribute(
    "href",
    /\/en\/pipelines\/review-analytics\/executions\//,
  );

  // Off, then deleted after a confirmation.
  await rule.getByRole("button", { name: "Turn off" }).click();
  await expect(rule.getByText("Off", { exact: true })).toBeVisible();
  await rule.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete rule" }).click();
  await expect(panel.getByText("No alert rules yet.")).toBeVisible();
});

test("a schedule made to analyse after each collection says so, and its switch turns it off", async ({ page }) => {
  await page.goto("/en/engine/schedules/new");
  const form = page.getByRole("form", { name: "New schedule" });
  await form.getByLabel("Platform id", { exact: true }).fill("p-0004");
  await form.getByLabel("Analyse after each collection").check();
  await form.getByRole("button", { name: "Create schedule" }).click();
  await expect(page).toHaveURL(/\/en\/engine\/schedules\/[0-9a-f-]{36}$/);
  const analysis = page.getByTestId("schedule-analysis");
  await expect(analysis).toContainText("Analysed after each collection");
  await analysis.getByRole("button", { name: "Stop analysing" }).click();
  await expect(analysis).toContainText("Not analysed automatically");
  await expect(page.getByTestId("alert-rules").getByText("No alert rules yet.")).toBeVisible();
});

test("the alerts of a place at 375 px: every control on screen", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { placeId } = await collect(page, { platform_id: "p-0006", review_limit: 1 });
  await page.goto(`/en/engine/places/${placeId}`);
  await page.getByTestId("alert-rules").getByRole("button", { name: "Add an alert rule" }).click();
  const form = page.getByRole("form", { name: "Add an alert rule" });
  for (const label of [
    "Alert when",
    "At or below",
    "Published within (days)",
    "Webhook URL",
    "E-mail address",
    "Mesh",
  ]) {
    const box = await form.getByLabel(label, { exact: true }).boundingBox();
    expect(box, label).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), label).toBeLessThanOrEqual(375);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
