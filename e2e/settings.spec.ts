import { readFile } from "node:fs/promises";
import { expect, signUp, test, uniqueEmail } from "./fixtures";

test("settings: change the display name and download the data export", async ({ page }) => {
  const email = uniqueEmail("settings");
  await signUp(page, "Sue Settings", email, "a-long-password-4");
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Display name").fill("Sue Renamed");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download my data" }).click();
  const download = await downloading;
  await expect(page.getByRole("status").filter({ hasText: "Your export has been downloaded." })).toBeVisible();
  const bundle = JSON.parse(await readFile((await download.path()) ?? "", "utf8")) as Record<string, unknown>;
  for (const section of ["profile", "meshesOwned", "meshesJoined", "invitesIssued", "auditEvents"]) {
    expect(bundle, section).toHaveProperty(section);
  }
  expect(bundle.profile).toMatchObject({ email, name: "Sue Renamed" });
});
