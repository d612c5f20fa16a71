// The mesh page's review bot section (issue 46, point 4): the owner adds the bot, sees it among the
// members, and removes it after a confirmation; the section passes the accessibility check in each state.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signUp, test, uniqueEmail } from "./fixtures";

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("the owner adds the review bot, sees it as a member, and removes it after a confirmation", async ({ page }) => {
  await signUp(page, "Rita Owner", uniqueEmail("review-bot"), "a-long-password-7");
  await page.goto("/en/dashboard/meshes/new");
  await page.getByLabel("Name").fill(`Bot ${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create mesh" }).click();

  const section = page.getByTestId("review-bot");
  await expect(section.getByRole("heading", { name: "Review bot" })).toBeVisible();
  await expect(section).toContainText("end-to-end encrypted");
  await expect(section).toContainText("This mesh has no review bot.");
  await section.getByRole("button", { name: "Add review bot" }).click();
  await expect(section.getByRole("button", { name: "Remove" })).toBeVisible();
  await expect(section).toContainText("Review bot ·");
  // A real member of the mesh: the members list has it.
  await expect(page.getByTestId("member").filter({ hasText: "Review bot" })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);

  await section.getByRole("button", { name: "Remove" }).click();
  const dialog = section.getByRole("alertdialog");
  await expect(dialog).toContainText("Remove the review bot?");
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await section.getByRole("button", { name: "Remove" }).click();
  await dialog.getByRole("button", { name: "Remove review bot" }).click();
  await expect(section.getByRole("button", { name: "Add review bot" })).toBeVisible();
  await expect(section).toContainText("This mesh has no review bot.");
});
