import type { BrowserContext, Page } from "@playwright/test";
import { expect, signUp, test as base, uniqueEmail } from "./fixtures";
import { baseURL } from "./playwright.config";

type State = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** Signs in through the page and waits for the dashboard. */
export async function signIn(page: Page, email: string, password: string) {
  // The first sign-in of a run may meet a cold server: let the form hydrate, and allow a slow answer.
  await page.goto("/en/sign-in", { waitUntil: "networkidle" });
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/, { timeout: 20_000 });
}

/** Creates a mesh through the REST API with the page's session; returns its id. */
export async function createMesh(page: Page, name: string, extra: Record<string, string> = {}): Promise<string> {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  const res = await page.request.post("/api/my/meshes", { data: { name, slug, ...extra } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { id: string }).id;
}

/** What the page matrix needs: a signed-in user with a mesh and a valid invite token of it. */
export interface World {
  userState: State;
  meshId: string;
  token: string;
}

/**
 * Sessions made once per worker: the demo administrator (signed in once, since sign-in attempts per
 * e-mail address are limited to 10 a minute) and a fresh user with a mesh and an invite.
 */
export const test = base.extend<object, { adminState: State; world: World }>({
  adminState: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ baseURL });
      await signIn(await context.newPage(), "admin@example.com", "admin-demo-password");
      const state = await context.storageState();
      await context.close();
      await use(state);
    },
    { scope: "worker" },
  ],
  world: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await signUp(page, "Wanda World", uniqueEmail("world"), "a-long-password-9");
      const meshId = await createMesh(page, `World ${Date.now().toString(36)}`);
      const invite = await page.request.post(`/api/my/meshes/${meshId}/invites`, { data: {} });
      expect(invite.ok(), await invite.text()).toBe(true);
      const { token } = (await invite.json()) as { token: string };
      const userState = await context.storageState();
      await context.close();
      await use({ userState, meshId, token });
    },
    { scope: "worker" },
  ],
});

export { expect };
