// Issue 18, point 2: the page where a person approves `mesh login` (the terminal's side runs in
// broker/cli/account.integration.test.ts). A signed-out visit goes through sign-in and comes back.
import { expect, signUp, test, uniqueEmail } from "./fixtures";

test("a signed-in person checks the terminal's code, approves it, and the terminal gets its token", async ({
  page,
  request,
}) => {
  const started = await request.post("/api/public/device/code", { data: { clientName: "e2e-laptop" } });
  expect(started.status()).toBe(200);
  const { deviceCode, userCode } = (await started.json()) as { deviceCode: string; userCode: string };

  // Signed out, the link from the terminal leads through sign-up and sign-in back to the code.
  await page.goto(`/en/device?code=${userCode}`);
  await expect(page).toHaveURL(/\/en\/sign-in\?callbackUrl=/);
  await signUp(page, "Dev Ice", uniqueEmail("device"), "a-long-password-9");
  await page.goto(`/en/device?code=${userCode}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in a command line");
  await expect(page.getByLabel("Code from the terminal")).toHaveValue(userCode);
  await expect(page.getByTestId("device-request")).toContainText(
    `e2e-laptop asks to sign in as you with the code ${userCode}.`,
  );

  // A mistyped code says so; the right one, typed in lower case, finds the request again.
  await page.getByLabel("Code from the terminal").fill("BBBB-BBBB");
  await page.getByRole("button", { name: "Check code" }).click();
  await expect(page.getByTestId("device-error")).toContainText("No login waits for this code");
  await page.getByLabel("Code from the terminal").fill(userCode.toLowerCase());
  await page.getByRole("button", { name: "Check code" }).click();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("device-result")).toHaveText(
    "Done: e2e-laptop is signed in as you. You can close this page.",
  );

  const polled = await request.post("/api/public/device/token", { data: { deviceCode } });
  const answer = (await polled.json()) as { status: string; token?: string; user?: { name: string } };
  expect(answer).toMatchObject({ status: "approved", user: { name: "Dev Ice" } });
  expect(answer.token).toMatch(/^mdt_/);
  expect(
    (await (await request.post("/api/public/device/whoami", { data: { token: answer.token } })).json()) as object,
  ).toMatchObject({ name: "Dev Ice" });

  // Issue 41: the command line is one of the account's sessions, and ending it there revokes its token.
  await page.goto("/en/dashboard/settings");
  const cli = page.locator(".session-list > li").filter({ hasText: "e2e-laptop" });
  await expect(cli).toContainText("command line");
  await expect(cli).toContainText("Expires");
  await cli.getByRole("button", { name: "End session" }).click();
  await expect(cli).toHaveCount(0);
  expect((await request.post("/api/public/device/whoami", { data: { token: answer.token } })).status()).toBe(401);
});
