import { readFile } from "node:fs/promises";
import { createMesh, expect, test } from "./admin-fixtures";
import { signUp, uniqueEmail } from "./fixtures";

/** Meshes of a fresh owner, named with a tag no other test uses, for a table to find. */
async function seedMeshes(browser: import("@playwright/test").Browser, tag: string, meshes: [string, string][]) {
  // Contexts made in a test inherit its options; this one must not carry the admin's session.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const owner = await context.newPage();
  await signUp(owner, "Otto Tableowner", uniqueEmail("tables"), "a-long-password-8");
  for (const [name, visibility] of meshes) await createMesh(owner, `${tag} ${name}`, { visibility });
  await context.close();
}

test.describe("admin console", () => {
  test.use({ storageState: async ({ adminState }, use) => use(adminState) });

  test("filters, searches and sorts the meshes table; the URL carries the view through reload and back", async ({
    page,
    browser,
  }) => {
    const tag = `tbl${Date.now().toString(36)}`;
    await seedMeshes(browser, tag, [
      ["Alpha", "public"],
      ["Beta", "public"],
      ["Gamma", "private"],
    ]);
    await page.goto("/en/dashboard");
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Admin" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Summary");
    await page
      .getByRole("navigation", { name: "Administration sections" })
      .getByRole("link", { name: "Meshes" })
      .click();
    await expect(page.getByRole("link", { name: "Meshes", exact: true })).toHaveAttribute("aria-current", "page");
    const table = page.getByRole("region", { name: "Meshes (scrolls sideways)" });
    const names = () => table.locator("tbody tr td:first-child");

    await page.getByLabel("Search").fill(tag);
    await page.getByLabel("Visibility").selectOption("public");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`/en/admin/meshes\\?q=${tag}&visibility=public$`));
    await expect(names()).toHaveCount(2);

    await table.getByRole("link", { name: "Name" }).click();
    await expect(page).toHaveURL(/[?&]sort=name&dir=asc/);
    await expect(names()).toHaveText([`${tag} Alpha`, `${tag} Beta`]);
    await expect(table.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending");
    await table.getByRole("link", { name: "Name" }).click();
    await expect(page).toHaveURL(/[?&]sort=name&dir=desc/);
    await expect(names()).toHaveText([`${tag} Beta`, `${tag} Alpha`]);

    await page.reload();
    await expect(names()).toHaveText([`${tag} Beta`, `${tag} Alpha`]);
    await expect(page.getByLabel("Search")).toHaveValue(tag);
    await expect(page.getByLabel("Visibility")).toHaveValue("public");

    await page.goBack();
    await expect(page).toHaveURL(/[?&]dir=asc/);
    await expect(names()).toHaveText([`${tag} Alpha`, `${tag} Beta`]);

    // The pager keeps the filters and the sort.
    await page.goto(`/en/admin/meshes?q=${tag}&sort=name&dir=asc&pageSize=1`);
    await expect(names()).toHaveText([`${tag} Alpha`]);
    await expect(page.getByText("Rows 1–1 of 3")).toBeVisible();
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(page).toHaveURL(/[?&]sort=name/);
    await expect(names()).toHaveText([`${tag} Beta`]);

    // A hand-edited link with a column the router cannot sort on shows the default view, not an error.
    await page.goto(`/en/admin/meshes?q=${tag}&sort=owner&page=-3`);
    await expect(names()).toHaveCount(3);
  });

  test("downloads the current view as CSV with the same filters and order", async ({ page, browser }) => {
    const tag = `csv${Date.now().toString(36)}`;
    await seedMeshes(browser, tag, [
      ['Zulu, "quoted"', "public"],
      ["Yankee", "public"],
      ["Xray", "private"],
    ]);
    await page.goto(`/en/admin/meshes?q=${tag}&visibility=public&sort=name&dir=asc`);
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^admin-meshes-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await readFile((await download.path()) ?? "", "utf8")).replace(/^\uFEFF/, "");
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      "id",
      "slug",
      "name",
      "visibility",
      "transport",
      "tier",
      "archivedAt",
      "createdAt",
      "ownerName",
      "ownerEmail",
      "memberCount",
    ]);
    expect(rows.slice(1).map((r) => r[2])).toEqual([`${tag} Yankee`, `${tag} Zulu, "quoted"`]);
    expect(rows.slice(1).every((r) => r.length === 11 && r[3] === "public" && r[10] === "1")).toBe(true);
  });

  test("audit log: filters by event type and date range in the URL", async ({ page, browser }) => {
    await seedMeshes(browser, `aud${Date.now().toString(36)}`, [["Audited", "private"]]);
    const today = new Date().toISOString().slice(0, 10);
    await page.goto("/en/admin/audit");
    await page.getByLabel("Event type").selectOption("mesh_created");
    await page.getByLabel("From (UTC day)").fill(today);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`eventType=mesh_created&from=${today}`));
    const types = page.locator("tbody tr td:nth-child(2)");
    await expect(types.first()).toHaveText("Mesh created");
    expect(new Set(await types.allTextContents())).toEqual(new Set(["Mesh created"]));
  });
});

test("a signed-in user who is not an administrator gets the 403 page; a signed-out visitor signs in first", async ({
  page,
  browser,
}) => {
  await signUp(page, "Nina Nonadmin", uniqueEmail("nonadmin"), "a-long-password-10");
  await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
  for (const path of [
    "/en/admin",
    "/en/admin/meshes",
    "/en/admin/audit?eventType=message_sent",
    "/en/admin/meshes/018f0000-0000-7000-8000-000000000000",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Access denied");
  }
  const csv = await page.request.get("/api/admin/csv/meshes");
  expect(csv.status()).toBe(403);

  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const visitor = await context.newPage();
  await visitor.goto("/es/admin/sessions");
  await expect(visitor).toHaveURL(/\/es\/sign-in\?.*reason=signed-out/);
  expect((await visitor.request.get("/api/admin/csv/audit")).status()).toBe(401);
  await context.close();
});

/** A small RFC 4180 reader: quoted fields, doubled quotes, commas and line breaks inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endRow = () => {
    row.push(cell);
    rows.push(row);
    row = [];
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      endRow();
      i++;
    } else {
      cell += c;
    }
  }
  if (cell || row.length) endRow();
  return rows;
}
