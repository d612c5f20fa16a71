// Issue 21, point 9: the home page says what the product does to visitors, and gives signed-in users a
// live overview: their meshes with members online (refreshed without a reload), and for administrators
// the review engine's newest jobs and reports. Nobody else gets engine data, in the page or its requests.
import type { Page } from "@playwright/test";
import { expect, test } from "./admin-fixtures";
import { createMeshWithInvite, signUp, uniqueEmail } from "./fixtures";
import { MeshCli } from "./mesh-cli";
import { baseURL } from "./playwright.config";

/** The overview's refresh interval (src/components/home/home-config.ts). */
const HOME_POLL_MS = 15_000;

async function noOverflow(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `wider than ${width} px by ${overflow} px`).toBeLessThanOrEqual(0);
}

test("a visitor sees what the product does, the ways in, and how meshes and the review engine work", async ({
  page,
}) => {
  await page.goto("/en");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(
    "Collect and analyse reviews. Connect your machines in encrypted meshes.",
  );
  await expect(
    main.getByText(/review engine collects the reviews of a place .* only ever sees ciphertext/),
  ).toBeVisible();
  await expect(main.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/en/sign-up");
  await expect(main.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/en/sign-in");

  await expect(main.getByRole("heading", { level: 2, name: "How it works" })).toBeVisible();
  const meshes = main.getByRole("region", { name: "Encrypted meshes" });
  await expect(meshes.getByRole("listitem")).toHaveText([
    "Create a mesh in your dashboard.",
    "Invite peers with a signed link, or let them scan its QR code.",
    "Each peer runs the mesh command-line client: mesh join with the link, then mesh send and mesh watch.",
    "Messages are encrypted end to end on the peers: the broker relays them and only ever sees ciphertext.",
  ]);
  const engine = main.getByRole("region", { name: "Review engine" });
  await expect(engine.getByRole("listitem")).toHaveCount(3);
  await expect(engine.getByRole("listitem").last()).toHaveText(
    "The result is a report with charts, for one place or several.",
  );
  // The one API document the app serves is linked, and answers.
  const apiDoc = engine.getByRole("link", { name: "OpenAPI description of the REST API" });
  const described = await page.request.get((await apiDoc.getAttribute("href")) ?? "");
  expect(described.status()).toBe(200);
  expect(((await described.json()) as { openapi?: string }).openapi).toMatch(/^3\./);
  // No overview for visitors.
  await expect(main.getByRole("heading", { name: "Your meshes" })).toHaveCount(0);

  await noOverflow(page, 1280);
  await noOverflow(page, 375);
  await main.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL(/\/en\/sign-up$/);
});

test("an owner sees their mesh with its online count, which rises to 1 online without a reload when a peer connects", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const cli = new MeshCli(baseURL);
  try {
    await signUp(page, "Hana Home", uniqueEmail("home"), "a-long-password-7");
    const { name, meshUrl, joinUrl } = await createMeshWithInvite(page, "Home mesh");
    const meshPath = new URL(meshUrl).pathname;
    await page.goto("/en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your overview");
    const card = page.getByTestId("home-mesh").filter({ hasText: name });
    await expect(card.getByRole("link", { name, exact: true })).toHaveAttribute("href", meshPath);
    await expect(card.getByRole("link", { name: `Live view of ${name}` })).toHaveAttribute("href", `${meshPath}/live`);
    await expect(card).toContainText("Your role: Owner");
    await expect(card.getByTestId("home-mesh-online")).toHaveText("Online: 0 of 1");
    await expect(page.getByRole("link", { name: "All your meshes (1)" })).toHaveAttribute("href", "/en/dashboard");

    // A marker on the window survives only if the page is never reloaded.
    await page.evaluate(() => Object.assign(window, { homeMarker: "kept" }));
    const joined = await cli.done(["join", joinUrl, "--name", "home-peer", "--anonymous"]);
    expect(joined.code, joined.err).toBe(0);
    const watch = cli.run(["watch"]);
    await expect.poll(() => watch.stderr(), { timeout: 20_000 }).toContain("connected to mesh");
    const connectedAt = Date.now();
    await expect(card.getByTestId("home-mesh-online")).toHaveText("Online: 1 of 2", { timeout: HOME_POLL_MS + 3_000 });
    expect(Date.now() - connectedAt).toBeLessThan(HOME_POLL_MS + 3_000);
    expect(await page.evaluate(() => (window as unknown as { homeMarker?: string }).homeMarker)).toBe("kept");

    // The live page counts the same.
    await card.getByRole("link", { name: `Live view of ${name}` }).click();
    await expect(page.getByText("Online: 1 of 2")).toBeVisible();
    watch.stop();
  } finally {
    cli.close();
  }
});

test("an administrator sees the newest jobs and reports, each linking to its page", async ({
  browser,
  world,
  adminState,
}) => {
  const context = await browser.newContext({
    baseURL,
    storageState: adminState,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  try {
    await page.goto("/en");
    const jobs = page.getByRole("region", { name: "Recent jobs" });
    const runs = page.getByRole("region", { name: "Recent reports" });
    await expect(jobs.getByTestId("home-job")).not.toHaveCount(0);
    expect(await jobs.getByTestId("home-job").count()).toBeLessThanOrEqual(5);
    expect(await runs.getByTestId("home-run").count()).toBeLessThanOrEqual(5);
    // The page matrix's job (submitted by this administrator just now) links to its page, named by its
    // place: the platform's name once the job has read it, the place's key before.
    const job = jobs.getByTestId("home-job").filter({ has: page.locator(`a[href="/en/engine/jobs/${world.jobId}"]`) });
    await expect(job.getByRole("link")).toHaveText(/^(p-0001|\S.{2,})$/);
    await expect(job.locator(".badge")).toHaveText(/^(Queued|Running|Succeeded|Failed|Cancelled)$/);
    // A finished run links to its report.
    const report = runs.locator(`a[href^="/en/pipelines/review-analytics/report?execution="]`).first();
    await expect(report).toBeVisible();
    await expect(runs.getByTestId("home-run").first()).toContainText("Review analytics");

    // Statuses are words, and no id is shown cut to 8 characters.
    for (const text of [await jobs.innerText(), await runs.innerText()]) {
      expect(text).not.toMatch(/\b[a-z]+(_[a-z]+)+\b/);
      expect(text).not.toMatch(/\b[0-9a-f]{8}\b/);
    }
    await noOverflow(page, 1280);
    await noOverflow(page, 375);

    await report.click();
    await expect(page).toHaveURL(/\/en\/pipelines\/review-analytics\/report\?execution=/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Review analytics");
    await page.goto("/en");
    await jobs.locator(`a[href="/en/engine/jobs/${world.jobId}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/en/engine/jobs/${world.jobId}$`));
  } finally {
    await context.close();
  }
});

test("a user who is not an administrator gets no engine data, in the page or in its requests", async ({
  browser,
  world,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL, storageState: world.userState });
  const page = await context.newPage();
  const calls: { url: string; body: string }[] = [];
  page.on("response", (res) => {
    if (res.url().includes("/api/trpc/"))
      void res.text().then(
        (body) => calls.push({ url: res.url(), body }),
        () => {},
      );
  });
  try {
    const response = await page.goto("/en");
    const html = (await response?.text()) ?? "";
    await expect(page.getByTestId("home-mesh")).not.toHaveCount(0);
    await expect(page.getByRole("region", { name: "Recent jobs" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Recent reports" })).toHaveCount(0);
    // Wait for a refresh: the requests the page makes by itself are covered too.
    await expect
      .poll(() => calls.filter((c) => c.url.includes("my.homeMeshes")).length, { timeout: HOME_POLL_MS + 5_000 })
      .toBeGreaterThan(0);
    for (const text of [html, ...calls.map((c) => `${c.url}\n${c.body}`)]) {
      expect(text).not.toContain(world.jobId);
      expect(text).not.toContain(world.executionId);
      expect(text).not.toContain("/engine/jobs/");
      expect(text).not.toContain("admin.homeEngine");
    }
    // Asked directly, the server refuses.
    const direct = await page.request.get("/api/trpc/admin.homeEngine");
    expect(direct.status()).toBe(403);
    expect(await direct.text()).toContain("FORBIDDEN");
  } finally {
    await context.close();
  }
});
