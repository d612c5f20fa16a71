// Issue 44, point 2: numbers and counts through the locale. A number of five digits carries the
// locale's separator, and a count of one takes the singular, in each language.
import { createMesh, expect, test } from "./admin-fixtures";
import { signUp, uniqueEmail } from "./fixtures";

test.describe("numbers in the admin console", () => {
  test.use({ storageState: async ({ adminState }, use) => use(adminState) });

  test("the CSV cap is written with each locale's thousands separator", async ({ page }) => {
    await page.goto("/en/admin/meshes");
    await expect(page.getByText("(at most 10,000 rows)")).toBeVisible();
    await page.goto("/de/admin/meshes");
    await expect(page.getByText("(höchstens 10.000 Zeilen)")).toBeVisible();
    await page.goto("/es/admin/meshes");
    await expect(page.getByText("(como máximo 10.000 filas)")).toBeVisible();
  });
});

test("an invite with a cap of one reads '0 of 1 use', and in German '0 von 1 Nutzung'", async ({ page }) => {
  await signUp(page, "Una Singular", uniqueEmail("plural"), "a-long-password-9");
  const meshId = await createMesh(page, `Plural ${Date.now().toString(36)}`);
  await page.goto(`/en/dashboard/meshes/${meshId}/invite`);
  await page.getByLabel("Use cap").fill("1");
  await page.getByRole("button", { name: "Create invite" }).click();
  await expect(page.getByTestId("short-url")).toBeVisible();
  await page.goto(`/en/dashboard/meshes/${meshId}`);
  const item = page.getByTestId("active-invite");
  await expect(item).toContainText("0 of 1 use");
  await expect(item).not.toContainText("1 uses");
  await page.goto(`/de/dashboard/meshes/${meshId}`);
  await expect(item).toContainText("0 von 1 Nutzung");
  await expect(item).not.toContainText("1 Nutzungen");
});
