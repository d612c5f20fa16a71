/**
 * Every page × every locale, at 375 px wide: the expected status, the page's language, a heading
 * whose top is within the first quarter of the screen (the header budget), no horizontal overflow, no element overflowing its container at 375 and 1280 px and no raw code or
 * JSON in the text (e2e/page-checks.ts), no axe-core violation of serious or critical impact, no browser error or
 * hydration warning, and no missing-translation line in the browser console or the server log.
 * The list of pages is read from src/app/[locale]/**\/page.tsx, so a new page fails the first test
 * until it is added to CASES.
 */
import AxeBuilder from "@axe-core/playwright";
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { expect, test, type World } from "./admin-fixtures";
import { baseURL } from "./playwright.config";
import { headerBudgetProblem, layoutProblems, rawTextProblems } from "./page-checks";
import { serverProblems } from "./server-problems";

const LOCALES = ["en", "es", "de"] as const;
type Who = "visitor" | "user" | "admin";
interface Case {
  name: string;
  who: Who;
  path: (w: World) => string;
  status?: number;
}

/** Route (folder under src/app/[locale]) → the visits that cover it. */
const CASES: Record<string, Case[]> = {
  "": [
    { name: "home", who: "visitor", path: () => "" },
    // The overview: the user's meshes; an administrator's also has the newest jobs and reports.
    { name: "home, signed in", who: "user", path: () => "" },
    { name: "home, administrator", who: "admin", path: () => "" },
  ],
  "[...rest]": [{ name: "not found", who: "visitor", path: () => "/no-such-page", status: 404 }],
  "sign-in": [{ name: "sign-in", who: "visitor", path: () => "/sign-in" }],
  "sign-up": [{ name: "sign-up", who: "visitor", path: () => "/sign-up" }],
  // Mailed links (issue 41); the development mailbox is a 404 in production, which the suite runs.
  "forgot-password": [{ name: "forgot password", who: "visitor", path: () => "/forgot-password" }],
  "reset-password": [
    { name: "reset password", who: "visitor", path: () => `/reset-password?token=${"x".repeat(43)}` },
    { name: "reset password, no link", who: "visitor", path: () => "/reset-password" },
  ],
  "verify-email": [{ name: "verify e-mail", who: "visitor", path: () => `/verify-email?token=${"x".repeat(43)}` }],
  "confirm-email": [{ name: "confirm e-mail", who: "visitor", path: () => `/confirm-email?token=${"x".repeat(43)}` }],
  "dev/mail": [{ name: "dev mailbox", who: "visitor", path: () => "/dev/mail", status: 404 }],
  "dev/mail/[id]": [
    { name: "dev mail", who: "visitor", path: () => "/dev/mail/2026-01-01T00-00-00-000Z-00000000", status: 404 },
  ],
  "api-reference": [{ name: "API reference", who: "visitor", path: () => "/api-reference" }],
  "join/[token]": [
    { name: "join, valid invite", who: "visitor", path: (w) => `/join/${w.token}` },
    { name: "join, malformed invite", who: "visitor", path: () => "/join/not-a-token" },
    // The short link: the same page, at the invite's code; any code that leads nowhere, one answer.
    { name: "join, short link", who: "visitor", path: (w) => `/join/${w.code}` },
    { name: "join, unknown short link", who: "visitor", path: () => "/join/aaaaaaaaaaaaaaaa" },
  ],
  device: [{ name: "device login", who: "user", path: () => "/device" }],
  dashboard: [{ name: "dashboard", who: "user", path: () => "/dashboard" }],
  "dashboard/meshes/new": [{ name: "new mesh", who: "user", path: () => "/dashboard/meshes/new" }],
  "dashboard/meshes/[meshId]": [{ name: "mesh detail", who: "user", path: (w) => `/dashboard/meshes/${w.meshId}` }],
  "dashboard/meshes/[meshId]/invite": [
    { name: "invite", who: "user", path: (w) => `/dashboard/meshes/${w.meshId}/invite` },
  ],
  "dashboard/meshes/[meshId]/live": [{ name: "live", who: "user", path: (w) => `/dashboard/meshes/${w.meshId}/live` }],
  "dashboard/meshes/[meshId]/chat": [{ name: "chat", who: "user", path: (w) => `/dashboard/meshes/${w.meshId}/chat` }],
  "dashboard/settings": [{ name: "settings", who: "user", path: () => "/dashboard/settings" }],
  admin: [
    { name: "admin summary", who: "admin", path: () => "/admin" },
    { name: "403 page", who: "user", path: () => "/admin", status: 403 },
  ],
  "admin/meshes": [{ name: "admin meshes", who: "admin", path: () => "/admin/meshes?sort=name&dir=asc" }],
  "admin/meshes/[meshId]": [{ name: "admin mesh detail", who: "admin", path: (w) => `/admin/meshes/${w.meshId}` }],
  "admin/sessions": [{ name: "admin sessions", who: "admin", path: () => "/admin/sessions" }],
  "admin/invites": [{ name: "admin invites", who: "admin", path: () => "/admin/invites?revoked=no" }],
  "admin/audit": [{ name: "admin audit log", who: "admin", path: (w) => `/admin/audit?meshId=${w.meshId}` }],
  engine: [
    { name: "engine overview", who: "admin", path: () => "/engine" },
    // Like the admin console: any other user gets the 403 page.
    { name: "engine 403 page", who: "user", path: () => "/engine", status: 403 },
  ],
  "engine/api-keys": [{ name: "API keys", who: "admin", path: () => "/engine/api-keys" }],
  "engine/batches": [{ name: "batches", who: "admin", path: () => "/engine/batches" }],
  "engine/batches/[batchId]": [{ name: "batch detail", who: "admin", path: (w) => `/engine/batches/${w.batchId}` }],
  "engine/schedules": [{ name: "schedules", who: "admin", path: () => "/engine/schedules" }],
  "engine/schedules/new": [{ name: "new schedule form", who: "admin", path: () => "/engine/schedules/new" }],
  "engine/schedules/[scheduleId]": [
    { name: "schedule detail", who: "admin", path: (w) => `/engine/schedules/${w.scheduleId}` },
  ],
  "engine/jobs": [{ name: "jobs", who: "admin", path: () => "/engine/jobs" }],
  "engine/jobs/new": [{ name: "new job form", who: "admin", path: () => "/engine/jobs/new" }],
  "engine/jobs/[jobId]": [{ name: "job detail", who: "admin", path: (w) => `/engine/jobs/${w.jobId}` }],
  "engine/places/[placeId]": [{ name: "place detail", who: "admin", path: (w) => `/engine/places/${w.placeId}` }],
  "engine/scrapers": [{ name: "scraper versions", who: "admin", path: () => "/engine/scrapers" }],
  // Pipelines are an administrator's pages; any other user gets the 403 page.
  pipelines: [
    { name: "pipelines", who: "admin", path: () => "/pipelines" },
    { name: "pipelines 403 page", who: "user", path: () => "/pipelines", status: 403 },
  ],
  "pipelines/[pipelineId]": [{ name: "pipeline dashboard", who: "admin", path: () => "/pipelines/review-analytics" }],
  "pipelines/[pipelineId]/execute": [
    { name: "execute form", who: "admin", path: () => "/pipelines/review-analytics/execute" },
  ],
  "pipelines/[pipelineId]/executions": [
    { name: "execution history", who: "admin", path: () => "/pipelines/review-analytics/executions" },
  ],
  "pipelines/[pipelineId]/executions/[executionId]": [
    { name: "execution detail", who: "admin", path: (w) => `/pipelines/review-analytics/executions/${w.executionId}` },
  ],
  "pipelines/[pipelineId]/executions/[executionId]/evidence/[ref]": [
    {
      name: "figure evidence",
      who: "admin",
      path: (w) => `/pipelines/review-analytics/executions/${w.executionId}/evidence/reviews`,
    },
  ],
  "pipelines/[pipelineId]/executions/[executionId]/replies": [
    {
      name: "reply drafts",
      who: "admin",
      path: (w) => `/pipelines/review-analytics/executions/${w.executionId}/replies`,
    },
  ],
  "pipelines/[pipelineId]/report": [
    { name: "report", who: "admin", path: (w) => `/pipelines/review-analytics/report?execution=${w.executionId}` },
  ],
};

function discoverRoutes(): string[] {
  const root = path.resolve(import.meta.dirname, "..", "src", "app", "[locale]");
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => path.basename(f) === "page.tsx")
    .map((f) => path.dirname(f).split(path.sep).join("/"))
    .map((d) => (d === "." ? "" : d))
    .sort();
}

test("every page of the app is in the matrix", () => {
  expect(discoverRoutes()).toEqual(Object.keys(CASES).sort());
});

test.use({ viewport: { width: 375, height: 800 } });

/** A page that records browser errors, hydration and translation warnings (its own 403/404 aside). */
async function watchedPage(
  browser: Browser,
  storageState: Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>> | undefined,
) {
  const context = await browser.newContext({ baseURL, storageState, viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (msg) => {
    const text = msg.text();
    // Failed loads are reported below with their URL (the browser's console line has none).
    if (text.startsWith("Failed to load resource")) return;
    if (msg.type() === "error" || /hydrat|MISSING_MESSAGE|missing message/i.test(text))
      problems.push(`${msg.type()}: ${text}`);
  });
  page.on("response", (res) => {
    // The document's own status is asserted by check(); any other failing load is a problem.
    if (res.status() >= 400 && res.request().resourceType() !== "document")
      problems.push(`HTTP ${res.status()} ${res.request().resourceType()} ${res.url()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems, close: () => context.close() };
}

async function check(page: Page, problems: string[], url: string, locale: string, status: number, axe: boolean) {
  const serverBefore = serverProblems().length;
  const response = await page.goto(url);
  expect(response?.status(), `${url} status`).toBe(status);
  await page.waitForLoadState("networkidle");
  await expect(page.locator("html"), url).toHaveAttribute("lang", locale);
  await expect(page.getByRole("heading", { level: 1 }), url).toBeVisible();
  // Every page but the home page has a title of its own before the product's name ("Mesh name · Review Mesh").
  if (status !== 403 && !/^\/[a-z]{2}$/.test(url)) expect(await page.title(), `${url} title`).toMatch(/^.+ · /);

  // The header and navigation above the title take at most a quarter of the first screen (375 × 800).
  expect.soft(await headerBudgetProblem(page), `${url} header budget at 375 px`).toBeNull();

  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${url} is wider than 375 px by ${overflow} px`).toBeLessThanOrEqual(0);
  // No element overflows its container: tables may scroll (with a cue) at 375 px, and fit at 1280 px.
  expect.soft(await layoutProblems(page, true), `${url} layout at 375 px`).toEqual([]);
  expect.soft(await rawTextProblems(page), `${url} raw codes or JSON`).toEqual([]);
  // Charts follow a new width on their next resize observation: poll until the layout settles.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect
    .poll(() => layoutProblems(page, false), { message: `${url} layout at 1280 px`, timeout: 5_000 })
    .toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });

  // axe-core in every language (issue 44, point 6): longer words and other plurals can break a layout's
  // contrast or names as well as its size.
  const results = axe ? await new AxeBuilder({ page }).analyze() : { violations: [] };
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious, `${url} accessibility`).toEqual([]);

  expect(problems.splice(0), `${url} browser console`).toEqual([]);
  expect(serverProblems().slice(serverBefore), `${url} server log`).toEqual([]);
}

for (const [route, cases] of Object.entries(CASES)) {
  for (const c of cases) {
    test(`${c.name} (${route || "/"}) in ${LOCALES.join(", ")}: accessible, 375 px, translated`, async ({
      browser,
      world,
      adminState,
    }) => {
      // Three languages, each with axe-core at 1280 and the layout checks at 375 px: the API reference
      // alone is a long page.
      test.setTimeout(180_000);
      const state = c.who === "admin" ? adminState : c.who === "user" ? world.userState : undefined;
      const { page, problems, close } = await watchedPage(browser, state);
      try {
        for (const locale of LOCALES)
          await check(page, problems, `/${locale}${c.path(world)}`, locale, c.status ?? 200, true);
      } finally {
        await close();
      }
    });
  }
}
