import { expect, test } from "./fixtures";

test("/ redirects to the visitor's locale", async ({ browser }) => {
  const context = await browser.newContext({
    locale: "es-ES",
    extraHTTPHeaders: { "accept-language": "es-ES,es;q=0.9" },
  });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page).toHaveURL(/\/es$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await page.goto("/sign-in");
  await expect(page).toHaveURL(/\/es\/sign-in$/);
  await context.close();
});

test("the language switcher reloads the same page in another language", async ({ page }) => {
  await page.goto("/en/sign-in");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  await page.getByLabel("Language").selectOption("de");
  await expect(page).toHaveURL(/\/de\/sign-in$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Anmelden");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await page.getByLabel("Sprache").selectOption("es");
  await expect(page).toHaveURL(/\/es\/sign-in$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Iniciar sesión");
});

for (const locale of ["en", "es", "de"]) {
  for (const path of ["", "/sign-in", "/sign-up", "/no-such-page"]) {
    test(`${locale}${path || "/"} renders with its language`, async ({ page }) => {
      const response = await page.goto(`/${locale}${path}`);
      expect(response?.status()).toBe(path === "/no-such-page" ? 404 : 200);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    });
  }
}
