import { expect, signUp, test, uniqueEmail } from "./fixtures";

test("sign up, sign out and sign in again", async ({ page }) => {
  const email = uniqueEmail("owner");
  await signUp(page, "Olga Owner", email, "a-long-password-1");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Olga Owner!");
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/en$/);
  // The header offers sign-in again (the home page's hero has a link of its own).
  await expect(
    page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Sign in" }),
  ).toBeVisible();

  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("a-long-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Olga Owner!");
});

test("a wrong password gets one generic error and no session", async ({ page }) => {
  const email = uniqueEmail("wrong");
  await signUp(page, "Walt Wrong", email, "the-right-password");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/en$/);

  for (const [who, password] of [
    [email, "not-the-password"],
    [uniqueEmail("nobody"), "whatever-password"],
  ] as const) {
    await page.goto("/en/sign-in");
    await page.getByLabel("E-mail").fill(who);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText("The e-mail or password is not right.");
    await expect(page).toHaveURL(/\/en\/sign-in/);
  }
  await page.goto("/en/dashboard");
  await expect(page).toHaveURL(/\/en\/sign-in\?/);
});

test("sign-up shows inline errors and keeps what was typed", async ({ page }) => {
  await page.goto("/en/sign-up");
  await page.getByLabel("Name").fill("Shorty");
  await page.getByLabel("E-mail").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(page.getByText("The password needs at least 10 characters.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Shorty");
});

test("a signed-out visit to the dashboard is sent to sign-in and comes back after it", async ({ page }) => {
  await page.goto("/de/dashboard");
  await expect(page).toHaveURL(/\/de\/sign-in\?.*reason=signed-out/);
  await expect(page.getByRole("status")).toHaveText("Bitte melde dich an, um fortzufahren.");
  await page.getByLabel("E-Mail").fill("user@example.com");
  await page.getByLabel("Passwort").fill("user-demo-password");
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page).toHaveURL(/\/de\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hallo, Uma User!");
});

test("the demo admin is shown as administrator", async ({ page }) => {
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail").fill("admin@example.com");
  await page.getByLabel("Password").fill("admin-demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
  await expect(page.getByText("Administrator")).toBeVisible();
});

test("too many sign-in attempts for one e-mail are refused for a while", async ({ page }) => {
  const email = uniqueEmail("guess");
  await page.goto("/en/sign-in");
  const alert = page.locator("form").getByRole("alert");
  // The default quota is a bucket of 10 attempts per e-mail address, refilled at 10 per minute: the
  // first 10 are answered, then attempts are refused long before the bucket could refill at the pace
  // of a browser (on a slow machine an attempt or two more may pass as tokens come back).
  const submit = page.locator("form").getByRole("button");
  let refusedAt = 0;
  for (let i = 1; i <= 25 && !refusedAt; i++) {
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(`guess-${i}`);
    // The answer of this very attempt (the server action's POST), then the form out of its pending state.
    const answered = page.waitForResponse((r) => r.request().method() === "POST");
    await submit.click();
    await answered;
    await expect(submit).toBeEnabled();
    await expect(alert).toHaveText(
      /The e-mail or password is not right\.|Too many attempts\. Wait a minute and try again\./,
    );
    if ((await alert.textContent())?.startsWith("Too many")) refusedAt = i;
  }
  expect(refusedAt).toBeGreaterThan(10);
  expect(refusedAt).toBeLessThanOrEqual(25);
});
