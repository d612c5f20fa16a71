import { sql } from "./database";
import { expect, signUp, test, uniqueEmail } from "./fixtures";

test("owner creates a mesh and an invite; a signed-out visitor sees its preview; a tampered token its reason", async ({
  page,
  browser,
}) => {
  await signUp(page, "Mia Meshowner", uniqueEmail("mesh"), "a-long-password-2");
  await expect(page.getByRole("heading", { name: "No meshes yet" })).toBeVisible();
  await page.getByRole("link", { name: "Create a mesh" }).click();

  const suffix = Date.now().toString(36);
  const name = `Team Ärger ${suffix}`;
  await page.getByLabel("Name").fill(name);
  await expect(page.getByLabel("Slug")).toHaveValue(`team-arger-${suffix}`);
  await page.getByRole("button", { name: "Create mesh" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);

  await page.getByRole("link", { name: "Invite" }).click();
  await page.getByLabel("Use cap").fill("3");
  await page.getByRole("button", { name: "Create invite" }).click();
  const joinUrl = (await page.getByTestId("join-url").textContent()) ?? "";
  await expect(page.getByRole("img", { name: "QR code of the join link" })).toBeVisible();
  expect(joinUrl).toMatch(/^http:\/\/localhost:\d+\/join\/[\w-]+$/);
  await expect(page.getByTestId("invite-link")).toHaveText(/^ic:\/\/join\//);
  const issued = page.getByRole("list", { name: "Issued invites" }).getByRole("listitem");
  await expect(issued).toHaveCount(1);
  await expect(issued.first()).toContainText("Valid");
  await expect(issued.first()).toContainText("0 of 3 uses");

  // A second browser, signed out, opens the https-form link (here http on localhost).
  const visitor = await browser.newContext({ locale: "de-DE", timezoneId: "Europe/Berlin" });
  const other = await visitor.newPage();
  await other.goto(new URL(joinUrl).pathname);
  await expect(other).toHaveURL(/\/de\/join\//);
  await expect(other.getByRole("heading", { level: 1 })).toHaveText(`${name} beitreten`);
  await expect(other.getByText("Mia Meshowner lädt dich ein, als Mitglied beizutreten.")).toBeVisible();
  await expect(other.getByTestId("join-command")).toHaveText(/^mesh join "ic:\/\/join\/[\w-]+"$/);

  const token = new URL(joinUrl).pathname.split("/").pop() ?? "";
  const payload = JSON.parse(Buffer.from(token, "base64url").toString()) as Record<string, string>;
  payload.role = "admin";
  await other.goto(`/en/join/${Buffer.from(JSON.stringify(payload)).toString("base64url")}`);
  await expect(other.getByRole("alert").filter({ hasText: "altered" })).toBeVisible();
  await other.goto("/en/join/not-a-token");
  await expect(other.getByRole("alert").filter({ hasText: "not a valid invite" })).toBeVisible();

  // Time passes: the same link, once its expiry is behind it, says so and still names the mesh.
  const expired = await sql("UPDATE invites SET expires_at = now() - interval '1 hour' WHERE token = $1", [token]);
  expect(expired.rowCount).toBe(1);
  await other.goto(`/en${new URL(joinUrl).pathname}`);
  await expect(other.getByRole("alert").filter({ hasText: "expired" })).toBeVisible();
  await expect(other.getByText(name)).toBeVisible();
  await sql("UPDATE invites SET expires_at = now() + interval '1 day' WHERE token = $1", [token]);

  // The owner revokes the invite; the same link now explains that.
  await page.getByRole("button", { name: "Revoke" }).click();
  // A confirmation first, saying what it does; then the invite is revoked.
  await expect(page.getByRole("alertdialog")).toContainText("Its link stops working at once");
  await page.getByRole("button", { name: "Yes, revoke it" }).click();
  await expect(issued.first()).toContainText("Revoked");
  await other.goto(`/en${new URL(joinUrl).pathname}`);
  await expect(other.getByRole("alert").filter({ hasText: "withdrawn" })).toBeVisible();
  await visitor.close();
});

test("a taken slug is explained next to the field", async ({ page }) => {
  await signUp(page, "Sam Slug", uniqueEmail("slug"), "a-long-password-3");
  const slug = `dup-${Date.now().toString(36)}`;
  for (let i = 0; i < 2; i++) {
    await page.goto("/en/dashboard/meshes/new");
    await page.getByLabel("Name").fill("Duplicate");
    await page.getByLabel("Slug").fill(slug);
    await page.getByRole("button", { name: "Create mesh" }).click();
    if (i === 0) await expect(page.getByRole("heading", { level: 1 })).toHaveText("Duplicate");
  }
  await expect(page.getByText("This slug is taken. Pick another one.")).toBeVisible();
  await page.getByLabel("Slug").fill("A");
  await page.getByRole("button", { name: "Create mesh" }).click();
  await expect(page.getByText("The slug needs at least 3 characters.")).toBeVisible();
});

test("a mesh that is not the visitor's, or no mesh at all, shows the not-found page", async ({ page }) => {
  await signUp(page, "Nora Nobody", uniqueEmail("nf"), "a-long-password-6");
  for (const path of [
    "/en/dashboard/meshes/no-such-mesh",
    "/en/dashboard/meshes/018f0000-0000-7000-8000-000000000000/live",
  ]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  }
});
