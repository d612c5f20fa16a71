import type { Page } from "@playwright/test";
import { sql } from "./database";
import { expect, signUp, test, uniqueEmail } from "./fixtures";

async function setVisibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((s) => {
    Object.defineProperty(document, "visibilityState", { value: s, configurable: true });
    Object.defineProperty(document, "hidden", { value: s === "hidden", configurable: true });
    // Like the browser, a bubbling event: listeners on window (React Query's) hear it too.
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  }, state);
}

test("the live page polls every 4 s, stops while hidden and polls at once when shown", async ({ page }) => {
  test.setTimeout(60_000);
  await signUp(page, "Lee Live", uniqueEmail("live"), "a-long-password-5");
  await page.goto("/en/dashboard/meshes/new");
  await page.getByLabel("Name").fill(`Live ${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create mesh" }).click();
  await page.getByRole("link", { name: "Live view" }).click();
  await expect(page.getByRole("heading", { name: "People" })).toBeVisible();

  const times: number[] = [];
  page.on("request", (req) => {
    if (req.url().includes("/api/trpc/my.stream")) times.push(Date.now());
  });
  await page.waitForTimeout(9_000);
  expect(times.length).toBeGreaterThanOrEqual(2);
  const gaps = times.slice(1).map((t, i) => t - (times[i] ?? t));
  for (const gap of gaps) {
    expect(gap).toBeGreaterThan(3_500);
    // 4 s apart; the margin absorbs a slow request on a loaded machine, not a different interval.
    expect(gap).toBeLessThan(5_500);
  }

  await setVisibility(page, "hidden");
  const whileHidden = times.length;
  await page.waitForTimeout(9_000);
  expect(times.length, "no request while hidden").toBe(whileHidden);

  const shownAt = Date.now();
  await setVisibility(page, "visible");
  await expect.poll(() => times.length, { timeout: 2_000 }).toBeGreaterThan(whileHidden);
  expect((times[whileHidden] ?? Infinity) - shownAt).toBeLessThan(1_500);
  await expect(page.getByText("Online: 0 of 1")).toBeVisible();
  await expect(page.getByTestId("live-event").filter({ hasText: "Lee Live created the mesh" })).toBeVisible();
});

test("a live page whose mesh is gone says so, drops the old figures and stops polling", async ({ page }) => {
  test.setTimeout(60_000);
  await signUp(page, "Gia Gone", uniqueEmail("gone"), "a-long-password-5");
  await page.goto("/en/dashboard/meshes/new");
  await page.getByLabel("Name").fill(`Gone ${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create mesh" }).click();
  await page.getByRole("link", { name: "Live view" }).click();
  await expect(page.getByRole("heading", { name: "People" })).toBeVisible();
  const meshId = /\/meshes\/([^/]+)\/live/.exec(page.url())?.[1];
  const times: number[] = [];
  page.on("request", (req) => {
    if (req.url().includes("/api/trpc/my.stream")) times.push(Date.now());
  });
  // Access lost while the page is open (as a removed member's is): the next poll is refused.
  await sql("DELETE FROM meshes WHERE id = $1", [meshId]);
  await expect(page.locator("main").getByRole("alert")).toContainText("You no longer have access to this mesh", {
    timeout: 10_000,
  });
  await expect(page.getByRole("heading", { name: "People" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to your meshes" })).toBeVisible();
  // No retries and no further polls: one refused request, then silence.
  const after = times.length;
  await page.waitForTimeout(9_000);
  expect(times.length).toBe(after);
  // Loaded again, the page is the mesh's not-found page with HTTP 404 (asked for with the page's own
  // cookies; a reload would log the document's own 404 in the console).
  expect((await page.request.get(page.url())).status()).toBe(404);
});
