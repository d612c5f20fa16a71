// Issue 21, point 7: the mesh page lists the invites still usable with their short links (copy, QR,
// revoke). The QR code is read back from a screenshot as a phone would read it off the screen, the
// decoded link leads a visitor (and `mesh join`) to the mesh, and once revoked it leads nowhere.
import { MeshCli } from "./mesh-cli";
import { decodeQrPng } from "./qr-decode";
import { expect, signUp, test, uniqueEmail } from "./fixtures";

test("an issued invite is listed on the mesh page with its short link: copied, read from its QR code, joined, then revoked", async ({
  page,
  browser,
  baseURL,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const cli = new MeshCli(baseURL ?? "");
  const late = new MeshCli(baseURL ?? "");
  try {
    await signUp(page, "Quinn Qr", uniqueEmail("qr"), "a-long-password-7");
    await page.getByRole("link", { name: "Create a mesh" }).click();
    const name = `Short links ${Date.now().toString(36)}`;
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create mesh" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    const meshUrl = page.url();
    // Nothing issued yet: the empty state.
    await expect(page.getByRole("heading", { name: "Active invites" })).toBeVisible();
    await expect(page.getByText("No invite can be used right now.")).toBeVisible();

    // Issuing: the short link first, with the QR code; the full link and the command-line link after it.
    await page.getByRole("link", { name: "Invite" }).click();
    await page.getByLabel("Use cap").fill("2");
    await page.getByRole("button", { name: "Create invite" }).click();
    const shortUrl = (await page.getByTestId("short-url").textContent()) ?? "";
    expect(shortUrl).toMatch(new RegExp(`^${baseURL}/join/[a-z2-7]{16}$`));
    // The long forms wait behind "show the full links".
    await expect(page.getByTestId("join-url")).toBeHidden();
    await page.getByText("Show the full links").click();
    await expect(page.getByTestId("join-url")).toHaveText(new RegExp(`^${baseURL}/join/eyJ[\\w-]{400,}$`));
    await expect(page.getByTestId("invite-link")).toHaveText(/^ic:\/\/join\/eyJ/);
    const issuedQr = decodeQrPng(await page.getByRole("img", { name: "QR code of the join link" }).screenshot());
    expect(issuedQr?.text).toBe(shortUrl);

    // Back on the mesh page, after leaving the invite page: listed, with who, when, uses and the link.
    await page.getByRole("link", { name: "Back to the mesh" }).click();
    await expect(page).toHaveURL(meshUrl);
    const item = page.getByRole("list", { name: "Active invites" }).getByTestId("active-invite");
    await expect(item).toHaveCount(1);
    await expect(item).toContainText("Member · by Quinn Qr · 0 of 2 uses");
    await expect(item).toContainText("Expires in 7 days");
    await expect(item.getByTestId("active-invite-link")).toHaveText(shortUrl);

    // Copy puts the short link on the clipboard.
    await item.getByRole("button", { name: "Copy: Short link (for people; the QR code opens it)" }).click();
    await expect(item.getByRole("button", { name: /^Copy: Short link/ })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shortUrl);

    // The QR code, read back from its pixels: the short link, in a small code (version ≤ 4, ≤ 33 modules).
    await item.getByRole("button", { name: "Show QR code" }).click();
    const qr = item.getByRole("img", { name: "QR code of the join link" });
    await expect(qr).toBeVisible();
    const decoded = decodeQrPng(await qr.screenshot());
    expect(decoded, "a QR code is found in the screenshot").not.toBeNull();
    expect(decoded?.text).toBe(shortUrl);
    expect(decoded?.version).toBeLessThanOrEqual(4);
    await item.getByRole("button", { name: "Hide QR code" }).click();
    await expect(qr).toHaveCount(0);

    // A visitor opens the decoded link: the join page of this mesh, in their language.
    const visitor = await browser.newContext({ locale: "de-DE" });
    const phone = await visitor.newPage();
    await phone.goto(decoded?.text ?? "");
    await expect(phone).toHaveURL(/\/de\/join\/[a-z2-7]{16}$/);
    await expect(phone.getByRole("heading", { level: 1 })).toHaveText(`${name} beitreten`);
    await expect(phone.getByText("Quinn Qr lädt dich ein, als Mitglied beizutreten.")).toBeVisible();
    // The command takes the short link too, and says where `mesh` comes from; the long link waits behind a disclosure.
    await expect(phone.getByTestId("join-command")).toHaveText(`mesh join "${decoded?.text ?? ""}"`);
    await expect(phone.getByTestId("invite-link")).toBeHidden();
    await phone.getByText("Vollständigen Einladungslink zeigen").click();
    await expect(phone.getByTestId("invite-link")).toHaveText(/^ic:\/\/join\/eyJ[\w-]+$/);
    await phone.getByText("Noch kein mesh-Befehl? So installierst du ihn").click();
    await expect(phone.getByTestId("install-command")).toContainText("npm install -g ./review-mesh-cli-");
    // Opened at 127.0.0.1 instead of localhost: the command's link follows the address the page was opened at.
    const loopback = (decoded?.text ?? "").replace("//localhost:", "//127.0.0.1:");
    await phone.goto(loopback);
    await expect(phone.getByTestId("join-command")).toHaveText(`mesh join "${loopback}"`);

    // The command line takes the short link too (it asks this web app for the token): one use.
    const joined = await cli.done(["join", shortUrl, "--name", "qr-laptop", "--anonymous"]);
    expect(joined.err).toBe("");
    expect(joined.out).toContain(`as qr-laptop (member)`);
    await page.reload();
    await expect(item).toContainText("1 of 2 uses");

    // Revoked after its confirmation: gone from the list, and the short link leads nowhere.
    await item.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("button", { name: "Yes, revoke it" }).click();
    await expect(item).toHaveCount(0);
    await expect(page.getByText("No invite can be used right now.")).toBeVisible();
    await phone.reload();
    await expect(phone.getByRole("heading", { level: 1 })).toHaveText("Diese Einladung kann nicht verwendet werden");
    await expect(phone.locator("main").getByRole("alert")).toHaveText(
      "Diese Einladung gibt es (nicht mehr). Bitte um eine neue.",
    );
    // The same page as a code never issued: nothing tells a revoked code from a guessed one.
    const guessed = await visitor.newPage();
    await guessed.goto("/de/join/aaaaaaaaaaaaaaaa");
    expect(await guessed.locator("main").innerText()).toBe(await phone.locator("main").innerText());
    const refused = await late.done(["join", shortUrl, "--anonymous"]);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain("invite_not_found");
    await visitor.close();
  } finally {
    cli.close();
    late.close();
  }
});
