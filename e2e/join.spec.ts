// Issue 18, point 1: an invited person joins in the browser. Signed out, the join page sends them to
// sign up and brings them back; signed in, they join under their own name, see the mesh, and leave it.
import { sql } from "./database";
import { createMeshWithInvite, expect, signUp, test, uniqueEmail } from "./fixtures";

test("a visitor signs up from the join link, comes back, joins in the browser, sees the mesh and leaves it", async ({
  page,
  browser,
}) => {
  await signUp(page, "Olga Owner", uniqueEmail("jowner"), "a-long-password-5");
  const { name, meshUrl, joinPath } = await createMeshWithInvite(page, "Browser join");

  const visitor = await browser.newContext();
  const other = await visitor.newPage();
  await other.goto(`/en${joinPath}`);
  const card = other.getByTestId("join-browser");
  await expect(card.getByRole("heading", { name: "Join with your account" })).toBeVisible();
  await card.getByRole("link", { name: "Create an account" }).click();
  await expect(other).toHaveURL(/\/en\/sign-up\?callbackUrl=/);
  const email = uniqueEmail("joiner");
  await other.getByLabel("Name").fill("Jo Joiner");
  await other.getByLabel("E-mail").fill(email);
  await other.getByLabel("Password").fill("a-long-password-6");
  // Sign-up signs the new account in at once and goes back to the join page.
  await other.getByRole("button", { name: "Create account" }).click();

  // Back on the join page, signed in: the display name is theirs unless they change it.
  await expect(other).toHaveURL(new RegExp(`/en${joinPath}$`));
  await expect(other.getByLabel("Your name in this mesh")).toHaveValue("Jo Joiner");
  await other.getByLabel("Your name in this mesh").fill("Jo (laptop)");
  await other.getByRole("button", { name: "Join this mesh" }).click();
  await expect(other.getByRole("heading", { level: 1 })).toHaveText(name);
  await other.goto("/en/dashboard");
  const row = other.getByRole("listitem").filter({ hasText: name });
  await expect(row).toContainText("Role: Member");

  // The owner sees the new member under the chosen name.
  await page.goto(meshUrl);
  await expect(page.getByText("Jo (laptop)", { exact: true })).toBeVisible();

  // Leaving asks first, then the mesh is gone from the list.
  await other.goto(meshUrl);
  await other.getByRole("button", { name: "Leave mesh" }).click();
  await other.getByRole("button", { name: "Yes, leave" }).click();
  await expect(other).toHaveURL(/\/en\/dashboard$/);
  await expect(other.getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
  await visitor.close();
});

test("a signed-in user who joins after the last use is told why, in the form", async ({ page, browser }) => {
  await signUp(page, "Una Used", uniqueEmail("jused"), "a-long-password-7");
  const { name, joinPath } = await createMeshWithInvite(page, "Capped", { useCap: "1" });

  const late = await browser.newContext();
  const other = await late.newPage();
  await signUp(other, "Lou Late", uniqueEmail("jlate"), "a-long-password-8");
  await other.goto(`/en${joinPath}`);
  // Someone else takes the one use while the page is open.
  const token = joinPath.split("/").pop() ?? "";
  expect((await sql("UPDATE invites SET used_count = max_uses WHERE token = $1", [token])).rowCount).toBe(1);
  await other.getByRole("button", { name: "Join this mesh" }).click();
  await expect(other.getByTestId("join-error")).toHaveText(
    "This invite has been used as many times as allowed. Ask for a new one.",
  );
  await other.goto("/en/dashboard");
  await expect(other.getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
  await late.close();
});
