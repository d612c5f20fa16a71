/**
 * Issue 44, point 4: an absent (or hidden) object answers HTTP 404, titled "Page not found · Review Mesh",
 * with a link back to the list of its kind: for every kind of detail page. And a signed-out visit to a
 * deep page comes back to that page after signing in, never to another origin.
 */
import { expect, test } from "./admin-fixtures";

const ABSENT = "018f0000-0000-7000-8000-000000000000";

const KINDS = [
  { kind: "mesh", who: "user", path: `/en/dashboard/meshes/${ABSENT}`, back: "/en/dashboard" },
  { kind: "mesh, live page", who: "user", path: `/en/dashboard/meshes/${ABSENT}/live`, back: "/en/dashboard" },
  { kind: "mesh, not an id", who: "user", path: "/en/dashboard/meshes/no-such-mesh", back: "/en/dashboard" },
  { kind: "admin mesh", who: "admin", path: `/en/admin/meshes/${ABSENT}`, back: "/en/admin/meshes" },
  { kind: "job", who: "admin", path: `/en/engine/jobs/${ABSENT}`, back: "/en/engine/jobs" },
  { kind: "batch", who: "admin", path: `/en/engine/batches/${ABSENT}`, back: "/en/engine/batches" },
  { kind: "schedule", who: "admin", path: `/en/engine/schedules/${ABSENT}`, back: "/en/engine/schedules" },
  // Places have no list of their own: back to the jobs that read them.
  { kind: "place", who: "admin", path: `/en/engine/places/${ABSENT}`, back: "/en/engine/jobs" },
  { kind: "place, not an id", who: "admin", path: "/en/engine/places/no-such-place", back: "/en/engine/jobs" },
  { kind: "pipeline", who: "admin", path: "/en/pipelines/no-such-pipeline", back: "/en/pipelines" },
  {
    kind: "pipeline run",
    who: "admin",
    path: `/en/pipelines/review-analytics/executions/${ABSENT}`,
    back: "/en/pipelines/review-analytics/executions",
  },
] as const;

for (const k of KINDS) {
  test(`an absent ${k.kind} answers 404 with a link back to its list`, async ({ browser, world, adminState }) => {
    const context = await browser.newContext({ storageState: k.who === "admin" ? adminState : world.userState });
    const page = await context.newPage();
    try {
      const response = await page.goto(k.path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
      expect(await page.title()).toMatch(/^Page not found · /);
      await expect(page.locator(`main a[href="${k.back}"]`).first()).toBeVisible();
    } finally {
      await context.close();
    }
  });
}

test("a signed-out visit to a deep page signs in and comes back to it; another origin is refused", async ({ page }) => {
  await page.goto("/en/admin/audit?q=nothing");
  await expect(page).toHaveURL(/\/en\/sign-in\?/);
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/en/admin/audit?q=nothing");
  // An open-redirect attempt: the sign-in page keeps no such callback.
  await page.goto(`/en/sign-in?callbackUrl=${encodeURIComponent("//evil.example/x")}`);
  await expect(page.locator('input[name="callbackUrl"]')).toHaveCount(0);
});
