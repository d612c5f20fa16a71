import { request, type BrowserContext, type Page } from "@playwright/test";
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
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  // A state-changing call with the session cookie says where it comes from, as the browser would (docs/security.md).
  const res = await page.request.post("/api/my/meshes", {
    data: { name, slug, ...extra },
    headers: { origin: baseURL },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { id: string }).id;
}

/**
 * What the page matrix needs: a signed-in user with a mesh and a valid invite token of it, a batch of
 * the review engine with its job (submitted by the administrator), and a pipeline execution (the
 * administrator's: pipelines are for administrators).
 */
/**
 * An API key made in the engine's page (jobs:read, jobs:write) and a request context that sends only it
 * (no session cookie): runs made with it are the key's, so the administrator's default run, which other
 * specs look at, stays theirs.
 */
export async function apiKeyClient(page: Page, prefix: string) {
  await page.goto("/en/engine/api-keys");
  await page.getByLabel("Name").fill(`${prefix}-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const key = (await page.getByTestId("created-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^rk_/);
  const auth = { authorization: `Bearer ${key}` };
  const api = await request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  return { auth, api };
}

export interface World {
  userState: State;
  meshId: string;
  token: string;
  /** The code of the invite's short link. */
  code: string;
  batchId: string;
  jobId: string;
  executionId: string;
  scheduleId: string;
  /** The place the batch's job read (once its run ended). */
  placeId: string;
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
    async ({ browser, adminState }, use) => {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await signUp(page, "Wanda World", uniqueEmail("world"), "a-long-password-9");
      const meshId = await createMesh(page, `World ${Date.now().toString(36)}`);
      const invite = await page.request.post(`/api/my/meshes/${meshId}/invites`, {
        data: {},
        headers: { origin: baseURL },
      });
      expect(invite.ok(), await invite.text()).toBe(true);
      const { token, shortUrl } = (await invite.json()) as { token: string; shortUrl: string };
      const code = new URL(shortUrl).pathname.split("/").pop() ?? "";
      const userState = await context.storageState();
      await context.close();

      // Jobs, batches and pipelines are an administrator's pages (or an API key's).
      const admin = await browser.newContext({ baseURL, storageState: adminState });
      // The demo data has a finished review-analytics run of the administrator.
      const runs = await admin.request.get("/api/pipelines/review-analytics/executions?status=succeeded");
      expect(runs.ok(), await runs.text()).toBe(true);
      // One with reviews: a run over none (e2e/review-forms.spec.ts makes one) has no figures to show.
      const executionId =
        ((await runs.json()) as { items: { id: string; review_count: number | null }[] }).items.find(
          (r) => (r.review_count ?? 0) > 0,
        )?.id ?? "";
      expect(executionId).not.toBe("");
      const batch = await admin.request.post("/api/scrape/platform-reviews/batch", {
        data: { requester_client_id: "page-matrix", jobs: [{ platform_id: "p-0001", review_limit: 5 }] },
        headers: { origin: baseURL },
      });
      expect(batch.ok(), await batch.text()).toBe(true);
      const { id: batchId, job_ids } = (await batch.json()) as { id: string; job_ids: string[] };
      // A schedule whose first slot is far away (no run).
      const schedule = await admin.request.post("/api/schedules", {
        data: {
          requester_client_id: "page-matrix",
          targets: [{ platform_id: "p-0001", review_limit: 5 }],
          cron: "0 6 1 1 *",
        },
        headers: { origin: baseURL },
      });
      expect(schedule.ok(), await schedule.text()).toBe(true);
      const { id: scheduleId } = (await schedule.json()) as { id: string };
      const jobId = job_ids[0] ?? "";
      let placeId = "";
      await expect
        .poll(
          async () => {
            const job = await admin.request.get(`/api/jobs/${jobId}`);
            placeId = ((await job.json()) as { job: { place_id: string | null } }).job.place_id ?? "";
            return placeId;
          },
          { timeout: 30_000 },
        )
        .not.toBe("");
      await use({ userState, meshId, token, code, batchId, jobId, executionId, scheduleId, placeId });
      await admin.request.delete(`/api/schedules/${scheduleId}`, { headers: { origin: baseURL } });
      await admin.close();
    },
    { scope: "worker" },
  ],
});

export { expect };
