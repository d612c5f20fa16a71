// Issue 45: people in the browser. Two people chat in their browsers with a command-line peer (the real
// `mesh` CLI) in both directions, whole mesh and direct; unread counts reach the navigation; a third
// browser restores the keys from the passphrase backup; a removal closes the removed person's chat at
// once; the page at 375 px in en, es and de passes the project's accessibility check.
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { expect, signUp, test, uniqueEmail, createMeshWithInvite } from "./fixtures";
import { baseURL } from "./playwright.config";
import { MeshCli } from "./mesh-cli";
import { layoutProblems } from "./page-checks";

const PASSWORD = "a-long-password-7";

async function person(browser: Browser, name: string, email: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  await signUp(page, name, email, PASSWORD);
  return { context, page };
}

async function openChat(page: Page, meshUrl: string) {
  await page.goto(`${meshUrl}/chat`);
  await expect(page.getByRole("status").filter({ hasText: "Connected" })).toBeVisible({ timeout: 20_000 });
}

async function say(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message", exact: true }).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.locator(".chat-messages")).toContainText(text);
}

const conversation = (page: Page, name: string | RegExp) => page.locator(".chat-peers").getByRole("button", { name });

test("two browsers and the command line chat both ways, whole mesh and direct; a third browser restores the keys; removal closes the chat", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const cli = new MeshCli(baseURL);
  const olgaEmail = uniqueEmail("chat-olga");
  const olga = await person(browser, "Olga Owner", olgaEmail);
  const bruno = await person(browser, "Bruno Member", uniqueEmail("chat-bruno"));
  try {
    const { meshUrl, joinUrl, joinPath } = await createMeshWithInvite(olga.page, "Chat mesh");
    await bruno.page.goto(joinPath);
    await bruno.page.getByRole("button", { name: "Join this mesh" }).click();
    await expect(bruno.page.getByRole("heading", { level: 1 })).toHaveText(/Chat mesh/);

    const joined = await cli.done(["join", joinUrl, "--name", "cli-bot", "--anonymous"]);
    expect(joined.code, joined.err).toBe(0);
    const watch = cli.run(["watch"]);
    await expect.poll(() => watch.stderr(), { timeout: 20_000 }).toContain("connected to mesh");

    await openChat(olga.page, meshUrl);
    await openChat(bruno.page, meshUrl);
    // Each sees the others with their presence: the CLI's watch and the other browser can receive now.
    await expect(conversation(olga.page, /cli-bot/)).toContainText("Can receive now");
    await expect(conversation(olga.page, /Bruno Member/)).toContainText("Can receive now");

    // Whole mesh: browser → browser and command line; command line → both browsers.
    await say(olga.page, "hello everyone from Olga's browser");
    await expect(bruno.page.locator(".chat-messages")).toContainText("hello everyone from Olga's browser");
    await expect.poll(() => watch.stdout(), { timeout: 15_000 }).toContain("hello everyone from Olga's browser");
    const sent = await cli.done(["send", "hello browsers, from the terminal"]);
    expect(sent.code, sent.err).toBe(0);
    await expect(olga.page.locator(".chat-messages")).toContainText("hello browsers, from the terminal");
    await expect(bruno.page.locator(".chat-messages")).toContainText("hello browsers, from the terminal");

    // Direct: the command line → Olga only; it is unread while she looks at the whole mesh.
    const direct = await cli.done(["send", "--to", "Olga Owner", "just for Olga"]);
    expect(direct.code, direct.err).toBe(0);
    await expect(conversation(olga.page, /cli-bot/)).toContainText("1 unread");
    await expect(olga.page.getByRole("navigation", { name: "Mesh sections" })).toContainText("Chat (1 unread)");
    await conversation(olga.page, /cli-bot/).click();
    await expect(olga.page.locator(".chat-messages")).toContainText("just for Olga");
    await expect(olga.page.getByRole("navigation", { name: "Mesh sections" })).not.toContainText("unread");
    await say(olga.page, "direct answer to the terminal");
    await expect.poll(() => watch.stdout(), { timeout: 15_000 }).toContain("direct answer to the terminal");
    expect(watch.stdout()).toMatch(/Olga Owner → you: direct answer to the terminal/);
    // Browser → browser, direct, with a mention completed from the list.
    await conversation(bruno.page, /Olga Owner/).click();
    const box = bruno.page.getByRole("textbox", { name: "Message", exact: true });
    await box.fill("ping @Ol");
    await expect(bruno.page.getByRole("listbox", { name: "Mention suggestions" })).toContainText("@Olga_Owner");
    await box.press("Enter");
    await expect(box).toHaveValue("ping @Olga_Owner ");
    await box.press("Enter");
    await expect(bruno.page.locator(".chat-messages")).toContainText("ping @Olga_Owner");
    await conversation(olga.page, /Bruno Member/).click();
    await expect(olga.page.locator(".chat-message.mentions-me")).toContainText("ping @Olga_Owner");
    expect(watch.stdout()).not.toContain("ping @Olga_Owner");

    // Safety numbers: Olga and Bruno see the same 60 digits for each other, and the command line prints
    // the same for Olga; marked verified, the mark turns into a warning when the keys it knew are gone.
    const digitsOf = async (page: Page, name: string) => {
      const item = page
        .locator(".chat-peer-list li")
        .filter({ has: page.getByRole("button", { name: new RegExp(`^${name}`) }) });
      await item.getByText("Safety number", { exact: true }).click();
      const shown = item.getByTestId("safety-digits");
      await expect(shown).toHaveText(/^(\d{5}[ \n]){11}\d{5}$/, { timeout: 10_000 });
      return { item, digits: ((await shown.textContent()) ?? "").replace(/\s/g, "") };
    };
    const olgaSeesBruno = await digitsOf(olga.page, "Bruno Member");
    const brunoSeesOlga = await digitsOf(bruno.page, "Olga Owner");
    expect(olgaSeesBruno.digits).toHaveLength(60);
    expect(brunoSeesOlga.digits).toBe(olgaSeesBruno.digits);
    const olgaSeesCli = await digitsOf(olga.page, "cli-bot");
    const verified = await cli.done(["verify", "Olga Owner", "--json"]);
    expect(verified.code, verified.err).toBe(0);
    expect((JSON.parse(verified.out) as { safetyNumber: string }).safetyNumber.replace(/\s/g, "")).toBe(
      olgaSeesCli.digits,
    );
    await olgaSeesCli.item.getByRole("button", { name: "Mark as verified" }).click();
    await expect(olgaSeesCli.item.getByText("Verified", { exact: true })).toBeVisible();
    // The mark as the browser keeps it, with another key fingerprint: what a changed key looks like.
    await olga.page.evaluate(() => {
      for (const key of Object.keys(localStorage).filter((k) => k.startsWith("mesh-chat-verified:"))) {
        const marks = JSON.parse(localStorage.getItem(key) ?? "[]") as { keyFingerprint: string }[];
        localStorage.setItem(
          key,
          JSON.stringify(marks.map((m) => ({ ...m, keyFingerprint: "AAAAAAAAAAAAAAAAAAAAAA" }))),
        );
      }
    });
    await olga.page.reload();
    await expect(olga.page.getByRole("status").filter({ hasText: "Connected" })).toBeVisible({ timeout: 20_000 });
    await expect(olga.page.getByRole("alert").filter({ hasText: "The keys of cli-bot changed" })).toBeVisible();

    // History stays on the device: a reload shows the conversation again.
    await olga.page.reload();
    await expect(olga.page.getByRole("status").filter({ hasText: "Connected" })).toBeVisible({ timeout: 20_000 });
    await expect(olga.page.locator(".chat-messages")).toContainText("hello browsers, from the terminal");

    // Key backup, then a third browser of Olga's restores it and takes part as the same device.
    await olga.page.getByText("Key backup").click();
    await olga.page.getByLabel("Passphrase", { exact: true }).fill("correct horse battery staple");
    await olga.page.getByLabel("Repeat the passphrase").fill("correct horse battery staple");
    await olga.page.getByRole("button", { name: "Back up keys" }).click();
    await expect(olga.page.getByText("Last backup:")).toBeVisible({ timeout: 30_000 });
    const third = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
    const restored = await third.newPage();
    await restored.goto("/en/sign-in");
    await restored.getByLabel("E-mail").fill(olgaEmail);
    await restored.getByLabel("Password").fill(PASSWORD);
    await restored.getByRole("button", { name: "Sign in" }).click();
    await expect(restored).toHaveURL(/\/en\/dashboard$/);
    await restored.goto(`${meshUrl}/chat`);
    await expect(restored.getByRole("heading", { name: "Restore your keys" })).toBeVisible({ timeout: 20_000 });
    await restored.getByLabel("Passphrase").fill("wrong passphrase here");
    await restored.getByRole("button", { name: "Restore" }).click();
    await expect(restored.getByRole("alert").filter({ hasText: "does not open the backup" })).toBeVisible({
      timeout: 30_000,
    });
    await restored.getByLabel("Passphrase").fill("correct horse battery staple");
    await restored.getByRole("button", { name: "Restore" }).click();
    await expect(restored.getByRole("status").filter({ hasText: "Connected" })).toBeVisible({ timeout: 30_000 });
    await say(restored, "written in the restored browser");
    // Bruno looks at Olga's direct conversation: the whole mesh's new message waits there, unread.
    await expect(conversation(bruno.page, /Whole mesh/)).toContainText("1 unread");
    await conversation(bruno.page, /Whole mesh/).click();
    await expect(bruno.page.locator(".chat-messages")).toContainText("written in the restored browser");
    await third.close();

    // Olga removes Bruno's browser membership: his chat closes at once and says so.
    await olga.page.goto(meshUrl);
    const row = olga.page
      .getByTestId("member")
      .filter({ hasText: "Bruno Member" })
      .filter({ hasText: "joined in the browser" });
    await row.getByRole("button", { name: "Remove" }).click();
    await row.getByRole("alertdialog").getByRole("button", { name: "Yes, remove" }).click();
    await expect(bruno.page.getByRole("alert").filter({ hasText: "You were removed from this mesh" })).toBeVisible({
      timeout: 10_000,
    });
    await expect(bruno.page.getByRole("textbox", { name: "Message", exact: true })).toHaveCount(0);
    watch.stop();
  } finally {
    cli.close();
    await olga.context.close();
    await bruno.context.close();
  }
});

test("the chat page at 375 px in en, es and de: accessible, nothing overflows", async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page } = await person(browser, "Pia Phone", uniqueEmail("chat-phone"), { width: 375, height: 800 });
  try {
    const { meshUrl } = await createMeshWithInvite(page, "Phone chat");
    const path = new URL(meshUrl).pathname.replace(/^\/en/, "");
    for (const [locale, connected, message] of [
      ["en", "Connected", "Message"],
      ["es", "Conectado", "Mensaje"],
      ["de", "Verbunden", "Nachricht"],
    ] as const) {
      await page.goto(`/${locale}${path}/chat`);
      await expect(page.getByRole("status").filter({ hasText: connected })).toBeVisible({ timeout: 20_000 });
      await page
        .getByRole("textbox", { name: message, exact: true })
        .fill("a message long enough to wrap on a phone screen, twice over");
      await page.getByRole("textbox", { name: message, exact: true }).press("Enter");
      await expect(page.locator(".chat-messages li")).not.toHaveCount(0);
      expect(await layoutProblems(page, true), `${locale} layout at 375 px`).toEqual([]);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      expect(serious, `${locale} accessibility`).toEqual([]);
    }
  } finally {
    await context.close();
  }
});

test("a history of 10,000 messages on the device is shown a page at a time, and earlier pages load on request", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page } = await person(browser, "Hugo History", uniqueEmail("chat-history"));
  try {
    const { meshUrl } = await createMeshWithInvite(page, "History chat");
    await openChat(page, meshUrl);
    const meshId = new URL(meshUrl).pathname.split("/").pop() ?? "";
    // Written straight into the page's IndexedDB, as 10,000 received messages would be.
    await page.evaluate(async (mesh) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open("review-mesh-chat");
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const devices = await new Promise<{ owner: string; meshId: string }[]>((resolve) => {
        const r = db.transaction("devices").objectStore("devices").getAll();
        r.onsuccess = () => resolve(r.result as { owner: string; meshId: string }[]);
      });
      const owner = devices.find((d) => d.meshId === mesh)?.owner ?? "";
      const tx = db.transaction("messages", "readwrite");
      const start = Date.now() * 1000 - 20_000;
      for (let i = 0; i < 10_000; i++)
        tx.objectStore("messages").put({
          owner,
          messageId: `00000000-0000-7000-8000-${String(i).padStart(12, "0")}`,
          n: start + i,
          conversation: "mesh",
          from: "00000000-0000-7000-8000-000000000000",
          fromName: "history",
          text: `old message ${i}`,
          sentAt: new Date().toISOString(),
          createdAt: new Date().toISOString(),
          direct: false,
          mine: false,
        });
      await new Promise<void>((resolve) => (tx.oncomplete = () => resolve()));
    }, meshId);
    await openChat(page, meshUrl);
    const items = page.locator(".chat-messages li");
    await expect(items).toHaveCount(100);
    await expect(items.last()).toContainText("old message 9999");
    await expect(items.first()).toContainText("old message 9900");
    await page.getByRole("button", { name: "Show earlier messages" }).click();
    await expect(items).toHaveCount(200);
    await expect(items.first()).toContainText("old message 9800");
    // A new message still goes to the end.
    await say(page, "after ten thousand");
    await expect(items.last()).toContainText("after ten thousand");
  } finally {
    await context.close();
  }
});
