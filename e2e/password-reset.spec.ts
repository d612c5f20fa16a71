// Issue 41: a forgotten password is reset through a mail delivered by a real SMTP server on loopback
// (e2e/mail-server.ts); the link works once and signs the account out everywhere.
import { expect, signUp, test, uniqueEmail } from "./fixtures";
import { linkIn, mailsTo, waitForMail } from "./mail";

test("forgot password: the same answer for any address, a mail only to the account, a link that works once", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("forgot");
  // Sign-up signs in at once and mails a verification link; the dashboard shows the banner.
  await signUp(page, "Fiona Forgot", email, "the-first-password");
  await expect(page.getByTestId("verify-banner")).toContainText(email);
  const verification = await waitForMail(email);
  expect(verification.subject).toBe("Confirm your e-mail address for Review Mesh");

  // Another browser: the account's session there stays signed in until the reset.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto("/en/sign-in");
  await other.getByLabel("E-mail").fill(email);
  await other.getByLabel("Password").fill("the-first-password");
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other).toHaveURL(/\/en\/dashboard$/);

  const visitor = await browser.newContext();
  const v = await visitor.newPage();
  const answerFor = async (address: string) => {
    await v.goto("/en/sign-in");
    await v.getByRole("link", { name: "Forgot password?" }).click();
    await expect(v).toHaveURL(/\/en\/forgot-password$/);
    await v.getByLabel("E-mail").fill(address);
    await v.getByRole("button", { name: "Send the link" }).click();
    const status = v.locator("main").getByRole("status");
    await expect(status).toBeVisible();
    return status.innerText();
  };
  const nobody = uniqueEmail("nobody");
  const known = await answerFor(email);
  const unknown = await answerFor(nobody);
  expect(unknown).toBe(known);

  const reset = await waitForMail(email, 2);
  expect(reset.subject).toBe("Reset your Review Mesh password");
  expect(reset.html).toContain("/en/reset-password?token=");
  expect(await mailsTo(nobody)).toHaveLength(0);

  const link = linkIn(reset, "reset-password");
  await v.goto(link);
  await v.getByLabel("New password", { exact: true }).fill("the-second-password");
  await v.getByLabel("New password again").fill("the-second-password");
  await v.getByRole("button", { name: "Set password" }).click();
  await expect(v).toHaveURL(/\/en\/sign-in\?/);
  await expect(v.getByRole("status")).toContainText("Your password has been set");

  // Every session ended: the other browser is signed out.
  await other.goto("/en/dashboard");
  await expect(other).toHaveURL(/\/en\/sign-in\?/);

  // The link works once.
  await v.goto(link);
  await v.getByLabel("New password", { exact: true }).fill("the-third-password");
  await v.getByLabel("New password again").fill("the-third-password");
  await v.getByRole("button", { name: "Set password" }).click();
  await expect(v.locator("form").getByRole("alert")).toContainText("This link does not work");

  // The new password signs in.
  await v.goto("/en/sign-in");
  await v.getByLabel("E-mail").fill(email);
  await v.getByLabel("Password").fill("the-second-password");
  await v.getByRole("button", { name: "Sign in" }).click();
  await expect(v).toHaveURL(/\/en\/dashboard$/);
  await elsewhere.close();
  await visitor.close();
});
