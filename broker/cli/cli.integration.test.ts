// The `mesh` command line end to end: real processes with their own config directories, a real broker
// on a free port, real PostgreSQL.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeInvite } from "@/server/services/invites/revoke-invite";
import { testDb } from "@/test/helpers";
import { actorOf } from "@/test/mesh-fixtures";
import { meshForBroker, tablesContaining } from "../client/test-mesh";
import { startBroker, type TestBroker } from "../test-support";
import { MeshProcesses, until, type MeshRun } from "./test-cli";

const db = testDb();
let broker: TestBroker;
const procs = new MeshProcesses();
beforeAll(async () => {
  broker = await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" });
});
afterAll(async () => {
  procs.cleanup();
  await broker.close();
  await db.$disconnect();
});

const mesh = (home: string, args: string[], command?: string[]): MeshRun => procs.run(home, args, command);
const done = (home: string, args: string[]) => procs.done(home, args);
const newHome = () => procs.home();

/** The secrets of every config file under a home (what must never be printed). */
function secretsOf(home: string): string[] {
  const dir = path.join(home, "meshes");
  return readdirSync(dir).flatMap((f) => {
    const c = JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Record<string, string>;
    return [c.meshRootKey, c.signSeed, c.boxSecretKey].filter((s): s is string => typeof s === "string");
  });
}

describe("mesh command line, end to end", () => {
  it("two terminals: join by link, watch, send to the mesh and to one peer, status by hook", async () => {
    const { mesh: m, invite } = await meshForBroker(db, broker.ws);
    const [ana, bo, cy] = [newHome(), newHome(), newHome()];
    const joined = await done(ana, ["join", invite.joinUrl, "--name", "Ana"]);
    expect(joined).toMatchObject({ code: 0, out: expect.stringContaining(`Joined mesh ${m.slug} as Ana (member).`) });
    expect((await done(bo, ["join", invite.inviteLink, "--name", "Bo"])).code).toBe(0);
    expect((await done(cy, ["join", invite.joinUrl, "--name", "Cy"])).code).toBe(0);
    expect((await done(ana, ["meshes"])).out).toMatch(new RegExp(`^${m.slug}\\s+Ana\\s+member\\s`, "m"));

    // Terminal 2 (and 3): watchers, one printing JSON lines, one for people.
    const watchJson = mesh(bo, ["watch", "--json"]);
    const watchText = mesh(cy, ["watch", "--presence"]);
    await until(
      () => watchJson.stderr().includes("connected to mesh") && watchText.stderr().includes("connected to mesh"),
      "the watchers to connect",
    );

    // Terminal 1: a message to the whole mesh, then one only for Bo.
    const sent = await done(ana, ["send", "hello from Ana"]);
    expect(sent).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Sent to 2 recipients \(message [0-9a-f-]{36}\)\./),
    });
    expect((await done(ana, ["send", "--to", "bo", "--priority", "high", "just for you, Bo"])).code).toBe(0);
    const jsonLines = () =>
      watchJson
        .stdout()
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await until(() => jsonLines().filter((l) => l.type === "message").length === 2, "two messages at Bo");
    expect(jsonLines().filter((l) => l.type === "message")).toEqual([
      expect.objectContaining({ text: "hello from Ana", fromName: "Ana", direct: false, to: { kind: "mesh" } }),
      expect.objectContaining({ text: "just for you, Bo", fromName: "Ana", direct: true, priority: "high" }),
    ]);
    await until(() => watchText.stdout().includes("hello from Ana"), "the message at Cy");
    expect(watchText.stdout()).toMatch(/^\d\d:\d\d:\d\d {2}Ana → mesh: hello from Ana$/m);

    // A script in terminal 1 reports what Ana does; both watchers see it.
    const hook = await done(ana, ["hook", "set-status", "working", "--text", "running tests"]);
    expect(hook).toMatchObject({ code: 0, out: expect.stringContaining("Status set to working") });
    await until(() => jsonLines().some((l) => l.type === "status"), "the status at Bo");
    expect(jsonLines().find((l) => l.type === "status")).toMatchObject({ status: "working", text: "running tests" });
    await until(() => watchText.stdout().includes("* Ana is working: running tests"), "the status at Cy");
    // Presence only where asked for: Cy's watcher saw Ana's `mesh send` sessions come and go.
    expect(watchText.stdout()).toMatch(/^\d\d:\d\d:\d\d {2}\* Ana is online \(sends only\)$/m);
    expect(jsonLines().some((l) => l.type === "presence")).toBe(false);

    const peers = await done(bo, ["peers", "--json"]);
    const list = JSON.parse(peers.out) as {
      displayName: string;
      online: boolean;
      status: string | null;
      you: boolean;
    }[];
    expect(list.map((p) => [p.displayName, p.you]).sort()).toEqual([
      ["Ana", false],
      ["Bo", true],
      ["Cy", false],
    ]);
    expect(list.find((p) => p.displayName === "Ana")?.status).toBe("working");

    // Ctrl-C ends a watcher cleanly; Cy never saw the direct message.
    watchJson.child.kill("SIGINT");
    watchText.child.kill("SIGINT");
    expect(await watchJson.exited).toBe(0);
    expect(await watchText.exited).toBe(0);
    expect(watchText.stdout()).not.toContain("just for you");

    // Nothing printed any key, and no plaintext reached the database.
    const printed = procs.output();
    for (const secret of [ana, bo, cy].flatMap(secretsOf)) expect(printed).not.toContain(secret);
    const texts = ["hello from Ana", "just for you, Bo"];
    expect(await tablesContaining(db, [...texts, ...texts.map((t) => Buffer.from(t).toString("hex"))])).toEqual([]);
  });

  it("prints join refusals plainly with exit code 1, and stores nothing", async () => {
    const { owner, invite, deps } = await meshForBroker(db, broker.ws);
    await revokeInvite({ ...deps, actor: actorOf(owner) }, { inviteId: invite.inviteId });
    const home = newHome();
    const refused = await done(home, ["join", invite.joinUrl]);
    expect(refused.code).toBe(1);
    expect(refused.err.trim()).toBe("mesh join: join refused: the invite was revoked (invite_revoked, HTTP 410)");
    expect((await done(home, ["meshes", "--json"])).out.trim()).toBe("[]");
    const noMesh = await done(home, ["send", "hi"]);
    expect(noMesh.code).toBe(1);
    expect(noMesh.err).toContain("no mesh joined yet");
  });

  it("is installed as the package's bin: npx mesh runs it", async () => {
    const p = mesh(newHome(), ["--version"], ["npx", "--no", "--", "mesh"]);
    expect(await p.exited).toBe(0);
    expect(p.stdout()).toMatch(/^mesh \d+\.\d+\.\d+ \(protocol v1\)$/m);
  });
});
