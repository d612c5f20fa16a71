/**
 * Account settings (issue 21, point 8): change the password, sign out of other sessions, delete the
 * account, and the API reference served from our own origin.
 */
import type { Page } from "@playwright/test";
import { createMesh, signIn } from "./admin-fixtures";
import { expect, signUp, test, uniqueEmail } from "./fixtures";
import { baseURL } from "./playwright.config";

async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/en$/);
}

async function refusedSignIn(page: Page, email: string, password: string) {
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText("The e-mail or password is not right.");
}

test("change the password (the current one required), then sign in with the new one only", async ({ page }) => {
  const email = uniqueEmail("password");
  await signUp(page, "Paula Password", email, "the-first-password");
  await page.goto("/en/dashboard/settings");
  const fill = async (current: string, next: string, again = next) => {
    await page.getByLabel("Current password").fill(current);
    await page.getByLabel("New password", { exact: true }).fill(next);
    await page.getByLabel("New password again").fill(again);
    await page.getByRole("button", { name: "Change password" }).click();
  };

  await fill("the-first-password", "the-second-password", "not-the-same-password");
  await expect(page.getByText("The two new passwords are not the same.")).toBeVisible();
  await fill("not-my-password", "the-second-password");
  await expect(page.getByText("The current password is not right.")).toBeVisible();
  await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");

  await fill("the-first-password", "the-second-password");
  await expect(
    page.getByRole("status").filter({ hasText: "Your password has been changed. No other session was signed in." }),
  ).toBeVisible();
  await expect(page.getByLabel("Current password")).toHaveValue("");

  await signOut(page);
  await refusedSignIn(page, email, "the-first-password");
  await signIn(page, email, "the-second-password");
});

test("two browsers signed in: one ends a session and signs out all others, and they are signed out", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("sessions");
  await signUp(page, "Sam Sessions", email, "a-long-password-7");
  const [laptop, phone] = [await browser.newContext({ baseURL }), await browser.newContext({ baseURL })];
  try {
    const [laptopPage, phonePage] = [await laptop.newPage(), await phone.newPage()];
    await signIn(laptopPage, email, "a-long-password-7");
    await signIn(phonePage, email, "a-long-password-7");

    await page.goto("/en/dashboard/settings");
    const sessions = page.locator(".session-list > li");
    await expect(sessions).toHaveCount(3);
    await expect(sessions.filter({ hasText: "This device" })).toHaveCount(1);
    await expect(sessions.first()).toContainText(/Chrome on \w+/);

    // One session ended on its own: the newest other one (the phone signed in last).
    await sessions.filter({ hasNotText: "This device" }).first().getByRole("button", { name: "End session" }).click();
    await expect(sessions).toHaveCount(2);
    await phonePage.goto("/en/dashboard");
    await expect(phonePage).toHaveURL(/\/en\/sign-in\?/);

    // All others at once, after a confirmation that says what happens.
    await page.getByRole("button", { name: "Sign out of all other sessions" }).click();
    await expect(page.getByRole("alertdialog")).toContainText(
      "Every browser but this one and every command line are signed out at once",
    );
    await page.getByRole("alertdialog").getByRole("button", { name: "Sign out other sessions" }).click();
    await expect(page.getByRole("status").filter({ hasText: "1 session was signed out." })).toBeVisible();
    await expect(sessions).toHaveCount(1);

    await laptopPage.goto("/en/dashboard/settings");
    await expect(laptopPage).toHaveURL(/\/en\/sign-in\?/);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  } finally {
    await laptop.close();
    await phone.close();
  }
});

test("delete the account after typing its e-mail address; it can no longer sign in", async ({ page }) => {
  const email = uniqueEmail("delete");
  await signUp(page, "Dora Delete", email, "a-long-password-8");
  await createMesh(page, `Doomed ${Date.now().toString(36)}`);
  await page.goto("/en/dashboard/settings");
  const zone = page.locator(".danger-zone");
  await expect(zone).toContainText("The meshes you own (1), for everyone in them");
  await expect(zone.getByRole("link", { name: "Download your data first" })).toHaveAttribute("href", "#your-data");

  await zone.getByRole("button", { name: "Delete my account…" }).click();
  const confirm = zone.getByRole("alertdialog");
  await expect(confirm).toContainText(`type its e-mail address: ${email}`);
  const button = confirm.getByRole("button", { name: "Delete my account" });
  await confirm.getByLabel("E-mail address of the account").fill("someone-else@example.test");
  await expect(button).toBeDisabled();
  await confirm.getByLabel("E-mail address of the account").fill(email.toUpperCase());
  await button.click();

  await expect(page).toHaveURL(/\/en\?notice=account-deleted$/);
  await expect(page.getByRole("status")).toHaveText(/Your account has been deleted/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await refusedSignIn(page, email, "a-long-password-8");
  await page.goto("/en/dashboard");
  await expect(page).toHaveURL(/\/en\/sign-in\?/);
});

test("the API reference loads from this origin only and shows the operations of /api/openapi.json", async ({
  page,
}) => {
  const origin = new URL(baseURL).origin;
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));

  await page.goto("/en");
  await page.getByRole("contentinfo").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/en\/api-reference$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");
  const operation = page
    .locator(".opblock")
    .filter({ has: page.locator('[data-path="/my/meshes"]') })
    .first();
  await expect(operation).toBeVisible({ timeout: 20_000 });
  await expect(operation).toContainText("Meshes I own or belong to");
  await expect(page.getByText("Loading the API reference…")).toHaveCount(0);
  await page.waitForLoadState("networkidle");

  const foreign = requested.filter(
    (url) => !url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin,
  );
  expect(foreign, "requests that left the origin").toEqual([]);
  expect(requested.some((url) => url.endsWith("/api/docs/swagger-ui-bundle.js"))).toBe(true);
  expect(requested.some((url) => url.endsWith("/api/openapi.json"))).toBe(true);
});

test("the API reference speaks the page's language around the API's own names", async ({ page }) => {
  await page.goto("/de/api-reference");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API-Referenz");
  await expect(page.getByText("gehören zur API selbst und bleiben auf Englisch")).toBeVisible();
  const operation = page
    .locator(".opblock")
    .filter({ has: page.locator('[data-path="/my/meshes"]') })
    .first();
  await expect(operation).toBeVisible({ timeout: 20_000 });
  await operation.locator(".opblock-summary").first().click();
  await expect(operation.getByRole("button", { name: "Ausprobieren" })).toBeVisible();
  await expect(operation.getByText("Antworten", { exact: true }).first()).toBeVisible();
  // The API's own names stay: its path and summary.
  await expect(operation).toContainText("/my/meshes");
  await expect(operation).toContainText("Meshes I own or belong to");
});
