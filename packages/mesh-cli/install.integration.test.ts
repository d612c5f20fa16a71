// The installable `mesh` package end to end, as a user gets it: `npm pack` builds it (its prepack) and
// packs it; `npm install -g` puts the tarball into an empty prefix with an empty npm cache and --offline
// (so neither a registry nor a dependency is needed); the installed command then runs from a folder
// outside the repository, with a HOME of its own and a PATH holding no folder of the repository, and
// joins a mesh on a real broker (real PostgreSQL) and sends a message another installed peer prints.
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import module, { builtinModules } from "node:module";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ChannelNotificationSchema, type ChannelEvent } from "../../broker/cli/test-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import { meshForBroker } from "../../broker/client/test-mesh";
import { startBroker, type TestBroker } from "../../broker/test-support";
import { packAndInstall, type InstalledMesh } from "./pack-install";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const PACKAGE = import.meta.dirname;
const manifest = JSON.parse(readFileSync(path.join(PACKAGE, "package.json"), "utf8")) as {
  name: string;
  version: string;
};
const work = mkdtempSync(path.join(realpathSync(os.tmpdir()), "mesh-package-"));
const prefix = path.join(work, "prefix");
const elsewhere = path.join(work, "elsewhere");

const db = testDb();
let broker: TestBroker;
const children = new Set<ReturnType<typeof spawn>>();

interface Run {
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  stop: () => void;
}

/** An environment as given, without NODE_ENV (which Next's typing of process.env insists on). */
type Env = Record<string, string>;

function start(command: string, args: string[], opts: { cwd: string; env: Env }): Run {
  const child = spawn(command, args, {
    ...opts,
    env: opts.env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (error) => ((err += String(error)), resolve(null)));
    child.once("close", (code) => resolve(code));
  });
  void exited.then(() => children.delete(child));
  return { stdout: () => out, stderr: () => err, exited, stop: () => child.kill("SIGINT") };
}

async function done(command: string, args: string[], opts: { cwd: string; env: Env }) {
  const r = start(command, args, opts);
  const code = await r.exited;
  return { code, out: r.stdout(), err: r.stderr() };
}

/** The environment a person's shell would give the installed `mesh`: a PATH and a HOME, nothing of the repository. */
function userEnv(home: string, node = process.execPath): Env {
  const PATH = [path.join(prefix, "bin"), path.dirname(node), "/usr/bin", "/bin"];
  for (const dir of PATH) expect(path.resolve(dir).startsWith(ROOT + path.sep), dir).toBe(false);
  mkdirSync(home, { recursive: true });
  return { PATH: PATH.join(path.delimiter), HOME: home };
}

const mesh = (home: string, args: string[], node?: string) =>
  done("mesh", args, { cwd: elsewhere, env: userEnv(home, node) });

async function until(check: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A Node older than 22 on this machine (the package says >= 20.19), to run the installed command with. */
function olderNode(): string | undefined {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ["--version"], { encoding: "utf8" }).stdout ?? "";
    const major = Number(/^v(\d+)\./.exec(version)?.[1]);
    if (major >= 20 && major < 22) return candidate;
  }
  return undefined;
}

let packed: InstalledMesh;
beforeAll(async () => {
  mkdirSync(elsewhere);
  broker = await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" });
  // An empty npm cache and --offline: anything the tarball needed from a registry would fail the install.
  packed = await packAndInstall(work);
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await broker?.close();
  await db.$disconnect();
  rmSync(work, { recursive: true, force: true });
});

describe("the mesh package", () => {
  it("packs the bundle alone, which installs offline into an empty prefix and needs only Node's built-ins", () => {
    const { files, packageDir, bin } = packed;
    expect(files).toContain("dist/mesh.js");
    expect(files).toContain("dist/THIRD-PARTY-LICENSES.txt");
    expect(files.filter((f) => !f.startsWith("dist/") && f !== "package.json" && f !== "README.md")).toEqual([]);
    expect(files.filter((f) => f.endsWith(".ts"))).toEqual([]);
    expect(bin).toBe(path.join(prefix, "bin", "mesh"));
    expect(existsSync(bin)).toBe(true);
    expect(existsSync(path.join(packageDir, "node_modules"))).toBe(false);
    // Every module the bundle imports is one of its own files or a built-in of Node. (What bundled
    // CommonJS requires is checked by the build, on esbuild's metafile: built-ins only, and ws's optional
    // native helpers, without which ws runs.)
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const dist = path.join(packageDir, "dist");
    const scripts = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(3);
    const specifiers = scripts.flatMap((f) =>
      [
        ...readFileSync(path.join(dist, f), "utf8").matchAll(
          /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)["']([^"']+)["']/g,
        ),
      ].map((m) => m[1]!),
    );
    const foreign = specifiers.filter((s) => !s.startsWith("./") && !s.startsWith("../") && !builtins.has(s));
    expect(foreign).toEqual([]);
    expect(specifiers.some((s) => s.startsWith("./"))).toBe(true);
  });

  it("runs --help and --version from a folder outside the repository, with its own HOME and PATH", async () => {
    const home = path.join(work, "home-help");
    const help = await mesh(home, ["--help"]);
    expect(help).toMatchObject({ code: 0, err: "", out: expect.stringContaining("Usage: mesh <command> [options]") });
    expect(await mesh(home, ["--version"])).toMatchObject({ code: 0, out: `mesh ${manifest.version} (protocol v1)\n` });
    expect((await mesh(home, ["help", "send"])).out).toContain("Usage: mesh send");
    expect(await mesh(home, ["frobnicate"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("unknown command"),
    });
    // Node 22.1 and later keep the compiled code in the user's cache folder for the next start.
    if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function")
      expect(readdirSync(path.join(home, ".cache", "mesh", "compile-cache")).length).toBeGreaterThan(0);
  });

  it("joins a mesh on a broker and sends a message that another installed peer receives", async () => {
    const { mesh: m, invite } = await meshForBroker(db, broker.ws);
    const [ana, bo] = [path.join(work, "home-ana"), path.join(work, "home-bo")];
    expect(await mesh(ana, ["join", invite.joinUrl, "--name", "Ana"])).toMatchObject({
      code: 0,
      out: expect.stringContaining(`Joined mesh ${m.slug} as Ana`),
    });
    expect((await mesh(bo, ["join", invite.joinUrl, "--name", "Bo"])).code).toBe(0);
    // The keys went to the default MESH_HOME under the HOME given (~/.config/mesh).
    expect(readdirSync(path.join(ana, ".config", "mesh", "meshes"))).toHaveLength(1);

    const watch = start("mesh", ["watch", "--json"], { cwd: elsewhere, env: userEnv(bo) });
    await until(() => watch.stderr().includes("connected to mesh"), "Bo's watch to connect");
    const sent = await mesh(ana, ["send", "hello from an installed mesh"]);
    expect(sent).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Sent to 1 recipient \(message [0-9a-f-]{36}\)\./),
    });
    const messages = () =>
      watch
        .stdout()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.type === "message");
    await until(() => messages().length > 0, "the message at Bo");
    expect(messages()).toEqual([
      expect.objectContaining({ text: "hello from an installed mesh", fromName: "Ana", direct: false }),
    ]);
    watch.stop();
    expect(await watch.exited).toBe(0);

    // `mesh mcp` (the bundled MCP SDK) answers an assistant's client of the SDK.
    const client = new Client({ name: "test-assistant", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: "mesh",
        args: ["mcp"],
        cwd: elsewhere,
        env: userEnv(ana),
        stderr: "pipe",
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("send_message");
    const peers = (await client.callTool({ name: "list_peers", arguments: {} })) as { content: { text: string }[] };
    expect(JSON.parse(peers.content[0]!.text)).toContainEqual(expect.objectContaining({ name: "Bo" }));
    await client.close();

    // What `mesh install claude-code` would register runs this installed bundle, not the repository's shim.
    const dry = await mesh(ana, ["install", "claude-code", "--dry-run"]);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain(`${path.join(packed.packageDir, "dist", "mesh.js")} hook set-status working`);
    expect(dry.out).not.toContain(ROOT);
  });

  it("serves Claude Code from the installed bundle: a channel event for a message, and the inject hook for a session", async () => {
    const { invite } = await meshForBroker(db, broker.ws);
    const [eve, fay] = [path.join(work, "home-eve"), path.join(work, "home-fay")];
    expect((await mesh(eve, ["join", invite.joinUrl, "--name", "Eve"])).code).toBe(0);
    expect((await mesh(fay, ["join", invite.joinUrl, "--name", "Fay"])).code).toBe(0);

    // Channels on: a message another peer sent reaches the model as `notifications/claude/channel`.
    const channel: ChannelEvent[] = [];
    const pushed = new Client({ name: "claude-code", version: "2.1.80" });
    pushed.setNotificationHandler(ChannelNotificationSchema, (n) => void channel.push(n.params));
    await pushed.connect(
      new StdioClientTransport({
        command: "mesh",
        args: ["mcp", "--channel", "on"],
        cwd: elsewhere,
        env: userEnv(eve),
      }),
    );
    expect(pushed.getServerCapabilities()?.experimental).toEqual({ "claude/channel": {} });
    await pushed.callTool({ name: "list_peers", arguments: {} }); // connected to the broker
    expect((await mesh(fay, ["send", "--to", "Eve", "is the build green?"])).code).toBe(0);
    await until(() => channel.length > 0, "the channel event");
    expect(channel[0]).toMatchObject({
      content: "is the build green?",
      meta: expect.objectContaining({ from: "Fay", scope: "direct" }),
    });
    await pushed.close();

    // Channels off, a session of its own: Fay's message waits in the session's inbox until the installed
    // inject hook, given Claude Code's JSON on standard input, prints it as additional context.
    const sessionId = randomUUID();
    const hooked = new Client({ name: "claude-code", version: "2.1.80" });
    await hooked.connect(
      new StdioClientTransport({
        command: "mesh",
        args: ["mcp", "--session", "auto", "--channel", "off"],
        cwd: elsewhere,
        env: { ...userEnv(eve), CLAUDE_CODE_SESSION_ID: sessionId, CLAUDE_PROJECT_DIR: elsewhere },
      }),
    );
    const who = (await hooked.callTool({ name: "whoami", arguments: {} })) as { content: { text: string }[] };
    const me = JSON.parse(who.content[0]!.text) as { member_id: string; session: { key: string } | null };
    expect(me.session?.key).toBe(sessionId);
    expect((await mesh(fay, ["send", "--to", me.member_id, "ping from Fay"])).code).toBe(0);
    const meshId = readdirSync(path.join(eve, ".config", "mesh", "meshes"))[0]!.replace(/\.json$/, "");
    const inbox = path.join(eve, ".config", "mesh", "inbox", `${me.member_id}.jsonl`);
    await until(() => existsSync(inbox) && readFileSync(inbox, "utf8").includes("ping from Fay"), "the session inbox");
    const hook = spawnSync("mesh", ["hook", "inject", "--mesh", meshId], {
      cwd: elsewhere,
      env: userEnv(eve) as NodeJS.ProcessEnv,
      encoding: "utf8",
      input: JSON.stringify({
        session_id: sessionId,
        cwd: elsewhere,
        hook_event_name: "UserPromptSubmit",
        prompt: "what next?",
      }),
    });
    expect(hook.status, hook.stderr).toBe(0);
    const context = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(context).toContain('<mesh-message from="Fay"');
    expect(context).toContain("ping from Fay");
    await hooked.close();
  });

  const older = olderNode();
  it.skipIf(!older)("runs on Node 20 too (no compile cache there): --version, join and send", async () => {
    const { invite } = await meshForBroker(db, broker.ws);
    const [cy, dee] = [path.join(work, "home-cy"), path.join(work, "home-dee")];
    expect(await mesh(cy, ["--version"], older)).toMatchObject({
      code: 0,
      out: `mesh ${manifest.version} (protocol v1)\n`,
    });
    expect((await mesh(cy, ["join", invite.joinUrl, "--name", "Cy"], older)).code).toBe(0);
    expect((await mesh(dee, ["join", invite.joinUrl, "--name", "Dee"], older)).code).toBe(0);
    const sent = await mesh(cy, ["send", "--to", "Dee", "hello from Node 20"], older);
    expect(sent).toMatchObject({ code: 0, out: expect.stringContaining("Sent to 1 recipient") });
    const inbox = await mesh(dee, ["inbox", "--json"], older);
    expect(inbox).toMatchObject({ code: 0, out: expect.stringContaining("hello from Node 20") });
  });
});
