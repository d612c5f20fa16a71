// Issue 18, point 6: a second person joins from the join page and sees the mesh; their machine signs in
// with `mesh login`, joins as their device and stays connected (`mesh watch`); the owner's live page
// shows them online with the status their hook set (`mesh hook set-status`); they leave, and the owner
// sees it. The real CLI, broker, web app and browser.
import { MeshCli } from "./mesh-cli";
import { createMeshWithInvite, expect, signUp, test, uniqueEmail } from "./fixtures";

test("the owner watches a second person join, set a status from a hook, and leave", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const cli = new MeshCli(baseURL ?? "");
  try {
    await signUp(page, "Olga Owner", uniqueEmail("lowner"), "a-long-password-5");
    const { name, meshUrl, joinUrl, joinPath } = await createMeshWithInvite(page, "People live");
    await page.goto(`${meshUrl}/live`);
    const people = page.getByTestId("live-person");
    await expect(people).toHaveCount(1);

    // Pia joins in the browser and sees the mesh.
    const context = await browser.newContext();
    const pia = await context.newPage();
    await signUp(pia, "Pia Person", uniqueEmail("lpia"), "a-long-password-6");
    await pia.goto(`/en${joinPath}`);
    await pia.getByRole("button", { name: "Join this mesh" }).click();
    await expect(pia.getByRole("heading", { level: 1 })).toHaveText(name);

    // The owner's live page shows her, and what she did, as a sentence.
    const piaRow = people.filter({ hasText: "Pia Person" }).filter({ hasText: "In the browser" });
    await expect(piaRow).toContainText("Never connected");
    await expect(
      page.getByTestId("live-event").filter({ hasText: "Pia Person joined in the browser as Member" }),
    ).toBeVisible();

    // Her machine: mesh login (approved on the device page), mesh join, mesh watch.
    const login = cli.run(["login", "--name", "pia-laptop"]);
    await expect
      .poll(() => /\/device\?code=([A-Z]{4}-[A-Z]{4})/.exec(login.stderr())?.[1] ?? "", { timeout: 20_000 })
      .not.toBe("");
    const code = /\/device\?code=([A-Z]{4}-[A-Z]{4})/.exec(login.stderr())?.[1] ?? "";
    await pia.goto(`/en/device?code=${code}`);
    await pia.getByRole("button", { name: "Approve" }).click();
    await expect(pia.getByTestId("device-result")).toContainText("pia-laptop is signed in as you");
    expect(await login.exited).toBe(0);
    const joined = await cli.done(["join", joinUrl, "--name", "pia-laptop"]);
    expect(joined.out).toContain("Linked to your account Pia Person");
    const watch = cli.run(["watch"]);
    await expect.poll(() => watch.stderr(), { timeout: 20_000 }).toContain("connected to mesh");

    const laptop = people.filter({ hasText: "Device “pia-laptop”" });
    await expect(laptop).toContainText("Pia Person");
    await expect(laptop).toContainText("Online");

    // A hook script sets her status; the owner sees it within a poll, marked as new.
    const hook = await cli.done(["hook", "set-status", "reviewing", "--text", "the parser PR"]);
    expect(hook.code).toBe(0);
    await expect(laptop.getByTestId("live-status")).toContainText("reviewing: the parser PR", { timeout: 10_000 });
    await expect(
      page.getByTestId("live-event").filter({ hasText: "pia-laptop set the status to “reviewing”" }),
    ).toBeVisible();

    // She leaves from the mesh page; her device's connection ends, and the owner sees her go.
    await pia.goto(meshUrl);
    await pia.getByRole("button", { name: "Leave mesh" }).click();
    await pia.getByRole("button", { name: "Yes, leave" }).click();
    await expect(pia).toHaveURL(/\/en\/dashboard$/);
    await expect(people.filter({ hasText: "Pia Person" })).toHaveCount(0, { timeout: 10_000 });
    await expect(page.getByTestId("live-event").filter({ hasText: "Pia Person left the mesh" }).first()).toBeVisible();
    await context.close();
  } finally {
    cli.close();
  }
});
