import { test as base, expect, type Page } from "@playwright/test";

/** A page that fails the test on browser errors, hydration warnings and missing translations. */
export const test = base.extend<{ page: Page }>({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("console", (msg) => {
      const text = msg.text();
      // A page that is meant to answer 404 or 403 (an absent mesh, the admin pages for a non-admin) logs
      // its own status; that is not a problem, its test asserts the status.
      if (text.startsWith("Failed to load resource") && text.includes("404") && /\/no-such-[a-z]+$/.test(page.url()))
        return;
      if (text.startsWith("Failed to load resource") && / 40[34] /.test(text) && msg.location().url === page.url())
        return;
      // An API call refused for the user's own input (400, 409, ...) is shown in the page, not a bug.
      if (
        text.startsWith("Failed to load resource") &&
        / 4\d\d /.test(text) &&
        msg.location().url.includes("/api/trpc/")
      )
        return;
      if (msg.type() === "error" || /hydrat|MISSING_MESSAGE|missing message/i.test(text))
        problems.push(`${msg.type()}: ${text}`);
    });
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    await use(page);
    expect(problems, "browser console problems").toEqual([]);
  },
});

export { expect };

/** A unique e-mail per test, so tests can run in any order and in parallel. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Signs up through the page (which signs the new account in at once) and waits for the dashboard. */
export async function signUp(page: Page, name: string, email: string, password: string) {
  await page.goto("/en/sign-up");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
}

/**
 * From a signed-in page: creates a mesh named `${prefix} <unique>` and an invite (with a use cap when
 * given); leaves the page on the invite. Returns the mesh's name and page and the invite's join URL.
 */
export async function createMeshWithInvite(page: Page, prefix: string, opts: { useCap?: string } = {}) {
  await page.getByRole("link", { name: "Create a mesh" }).click();
  const name = `${prefix} ${Date.now().toString(36)}`;
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create mesh" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const meshUrl = page.url();
  await page.getByRole("link", { name: "Invite" }).click();
  if (opts.useCap) await page.getByLabel("Use cap").fill(opts.useCap);
  await page.getByRole("button", { name: "Create invite" }).click();
  const joinUrl = (await page.getByTestId("join-url").textContent()) ?? "";
  return { name, meshUrl, joinUrl, joinPath: new URL(joinUrl).pathname };
}
