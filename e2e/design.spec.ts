/**
 * The design system as people meet it on a phone (issue 44, points 1 and 6; docs/ui.md):
 * - the menu button: below 760 px the main navigation folds behind it (aria-expanded, Enter/Space,
 *   Escape returns focus, a followed link closes it); at 1280 px the links show and the button does not;
 * - the header budget: with the menu closed the header and a section's navigation above the title
 *   take at most 25 % of a 375 × 800 screen (every page is checked in pages.spec.ts; here the sections);
 * - the tables the issue named keep every column on screen at 375 px (cards on phones): live people
 *   and their status, scraper versions with traffic and actions, a job's reviews, the dashboard's top
 *   issues with their excerpts, and the admin audit log;
 * - the audit log's pager has page numbers and a jump to any page.
 */
import type { Page } from "@playwright/test";
import { createMesh, expect, test } from "./admin-fixtures";
import { baseURL } from "./playwright.config";
import { headerBudgetProblem, offscreenCells } from "./page-checks";

test.use({ viewport: { width: 375, height: 800 } });

const CARDS = "main .cards-on-phone table, main table.cards-on-phone";
const menuButton = (page: Page) => page.getByRole("banner").getByRole("button", { name: "Menu" });
/** Waits until React has attached the handlers of the page's folding navigations (Disclosure's data-ready). */
const hydrated = (page: Page) => expect(page.locator(".disclosure").first()).toHaveAttribute("data-ready", "true");
const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main navigation" });

test("the menu button opens and closes the navigation on a phone, by pointer and keyboard", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: "en-US" });
  const page = await context.newPage();
  await page.goto("/en", { waitUntil: "networkidle" });
  const button = menuButton(page);
  const signIn = mainNav(page).getByRole("link", { name: "Sign in" });
  await expect(button).toBeVisible();
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(signIn).toBeHidden();
  // The header is one row: the product's mark and the button.
  const header = await page.getByRole("banner").boundingBox();
  expect(header?.height ?? 999).toBeLessThanOrEqual(64);
  await expect(page.getByRole("banner").getByRole("link", { name: "Review Mesh" }).locator("svg")).toBeVisible();

  const title = page.getByRole("heading", { level: 1 });
  const before = (await title.boundingBox())?.y;
  await hydrated(page);
  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect(signIn).toBeVisible();
  // The open panel lies over the page: the title does not move.
  expect((await title.boundingBox())?.y).toBe(before);

  // Escape closes it and gives the focus back to the button.
  await page.keyboard.press("Escape");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(signIn).toBeHidden();
  await expect(button).toBeFocused();

  // Keyboard: Enter opens, Tab reaches the first link, following it closes the menu.
  await page.keyboard.press("Enter");
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Tab");
  await expect(signIn).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/en\/sign-in$/);
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");
  // The current page is marked (the link itself is folded away with the menu).
  await expect(mainNav(page).locator('a[href="/en/sign-in"]')).toHaveAttribute("aria-current", "page");

  // A click outside closes it too.
  await hydrated(page);
  await menuButton(page).click();
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", "true");
  await page.mouse.click(10, 780);
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");

  // On a wide screen the links show and the button does not.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menuButton(page)).toBeHidden();
  await expect(mainNav(page).getByRole("link", { name: "Sign up" })).toBeVisible();
  await context.close();
});

test("a section's navigation is one row on a phone and opens its list", async ({ browser, adminState }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, storageState: adminState });
  const page = await context.newPage();
  for (const [url, section, name] of [
    ["/en/admin/audit", "Administration sections", "Audit log"],
    ["/en/engine/jobs", "Review engine", "Jobs"],
  ] as const) {
    await page.goto(url, { waitUntil: "networkidle" });
    expect(await headerBudgetProblem(page), url).toBeNull();
    const nav = page.getByRole("navigation", { name: section });
    const button = nav.getByRole("button");
    await expect(button).toContainText(name);
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name, exact: true })).toBeHidden();
    await hydrated(page);
    await button.click();
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    await page.keyboard.press("Escape");
    await expect(button).toBeFocused();
    await expect(nav.getByRole("link", { name, exact: true })).toBeHidden();
  }
  // The main menu of an administrator lists every area, each with an icon.
  await hydrated(page);
  await menuButton(page).click();
  for (const name of ["Dashboard", "Pipelines", "Review engine", "Admin", "Settings"])
    await expect(mainNav(page).getByRole("link", { name, exact: true }).locator("svg")).toBeVisible();
  await context.close();
});

test("the tables the issue named keep every column on screen at 375 px", async ({ browser, world, adminState }) => {
  test.setTimeout(150_000);
  const user = await browser.newContext({ viewport: { width: 375, height: 800 }, storageState: world.userState });
  const live = await user.newPage();
  await live.goto(`/en/dashboard/meshes/${world.meshId}/live`, { waitUntil: "networkidle" });
  await expect(live.getByTestId("live-person").first()).toBeVisible();
  const status = await live.getByTestId("live-status").first().boundingBox();
  expect(status && status.x >= 0 && status.x + status.width <= 375, "the status column is on screen").toBe(true);
  expect(await offscreenCells(live, CARDS), "live people").toEqual([]);
  await user.close();

  const admin = await browser.newContext({ viewport: { width: 375, height: 800 }, storageState: adminState });
  const page = await admin.newPage();
  const pages: [string, string][] = [
    ["scraper versions, traffic and actions", "/en/engine/scrapers"],
    ["top issues and their excerpts", "/en/pipelines/review-analytics"],
    ["audit log", "/en/admin/audit"],
    ["jobs", "/en/engine/jobs"],
  ];
  for (const [what, url] of pages) {
    await page.goto(url, { waitUntil: "networkidle" });
    // The tables shown as cards on phones (charts drawn as tables, such as the heatmap, scroll with a cue).
    await expect(page.locator(CARDS).first(), what).toBeVisible({ timeout: 20_000 });
    expect(await offscreenCells(page, CARDS), what).toEqual([]);
  }
  // The scrapers' actions are buttons on screen, not past a sideways scroll.
  await page.goto("/en/engine/scrapers", { waitUntil: "networkidle" });
  const action = page.locator("main table tbody tr").first().getByRole("button").first();
  if ((await action.count()) > 0) {
    const box = await action.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375, "the first action is on screen").toBe(true);
  }

  // A job's reviews (once the demo platform has answered) and its errors, on screen.
  await expect(async () => {
    await page.goto(`/en/engine/jobs/${world.jobId}`, { waitUntil: "networkidle" });
    await expect(page.getByRole("region", { name: "Reviews collected" }).locator("tbody tr").first()).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 90_000 });
  expect(await offscreenCells(page, CARDS), "job reviews and callback attempts").toEqual([]);
  await admin.close();
});

test("the audit log's pager has page numbers and jumps to any page", async ({ browser, adminState }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: adminState });
  const page = await context.newPage();
  // A mesh of its own with 45 audit events (its creation and 44 invites): three pages of 20. Each invite
  // has its own lifetime: invites alike in every field made within the same second share a token until
  // create-invite's 30 tries of a later expiry run out (a limit of its own, not the pager's).
  const meshId = await createMesh(page, `Pager ${Date.now().toString(36)}`);
  for (let i = 0; i < 44; i++) {
    const res = await page.request.post(`/api/my/meshes/${meshId}/invites`, {
      data: { expiresInHours: 24 + i },
      headers: { origin: baseURL },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await page.goto(`/en/admin/audit?meshId=${meshId}`, { waitUntil: "networkidle" });
  const pager = () => page.getByRole("navigation", { name: "Pages of the table" });
  await expect(pager().locator(".pager-summary")).toContainText("Page 1 of 3");
  await expect(pager().getByRole("link", { name: "Page 1", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(pager().getByRole("link", { name: "Page 3", exact: true })).toBeVisible();
  await pager().getByRole("link", { name: "Page 2", exact: true }).click();
  await expect(page).toHaveURL(/[?&]page=2\b/);
  await expect(pager().getByRole("link", { name: "Page 2", exact: true })).toHaveAttribute("aria-current", "page");
  // The jump keeps the view's filter (the mesh) and goes to the page typed.
  await page.getByLabel("Go to page").fill("3");
  await page.getByRole("button", { name: "Go", exact: true }).click();
  await expect(page).toHaveURL(/[?&]page=3\b/);
  expect(new URL(page.url()).searchParams.get("meshId")).toBe(meshId);
  await expect(pager().getByRole("link", { name: "Page 3", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(pager().locator(".pager-summary")).toContainText("Page 3 of 3");
  await expect(pager().getByRole("link", { name: "Next page" })).toHaveCount(0);
  await context.close();
});
