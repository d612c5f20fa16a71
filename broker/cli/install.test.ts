import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import nacl from "tweetnacl";
import { afterAll, describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/server/core/encoding";
import { ConfigStore, generatePeerSecrets } from "../client";
import { main } from "./main";
import { memoryIo } from "./test-io";

const home = mkdtempSync(path.join(os.tmpdir(), "mesh-install-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const secrets = generatePeerSecrets();
new ConfigStore(home).save({
  version: 1,
  meshId: randomUUID(),
  meshSlug: "team-a",
  memberId: randomUUID(),
  role: "member",
  displayName: "Me",
  brokerUrl: "ws://127.0.0.1:1",
  joinedAt: new Date().toISOString(),
  meshRootKey: toBase64Url(nacl.randomBytes(32)),
  signSeed: toBase64Url(secrets.signSeed),
  boxSecretKey: toBase64Url(secrets.boxSecretKey),
});
const settings = path.join(home, "claude", "settings.json");
const mcp = path.join(home, "claude.json");
const run = async (argv: string[]) => {
  const t = memoryIo({ MESH_HOME: home, HOME: home });
  const code = await main([...argv, "--settings", settings, "--mcp-config", mcp], t.io);
  return { code, out: t.out.join("\n"), err: t.err.join("\n") };
};
const json = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const backups = () =>
  readdirSync(path.dirname(settings)).filter((f) => f.includes(".bak-")).length +
  readdirSync(home).filter((f) => f.startsWith("claude.json.bak-")).length;

describe("mesh install claude-code", () => {
  it("adds the server, the status hooks and the message hooks, keeping other settings, idempotently; uninstall restores the rest", async () => {
    // Settings of the person's own: a model, another hook on Stop, another MCP server.
    const mine = { model: "opus", hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } };
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, JSON.stringify(mine));
    writeFileSync(mcp, JSON.stringify({ projects: { x: 1 }, mcpServers: { other: { command: "other-server" } } }));

    const dry = await run(["install", "claude-code", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("hook set-status working");
    expect(dry.out).toContain("hook inject --mesh");
    expect(json(settings)).toEqual(mine);

    const first = await run(["install", "claude-code"]);
    expect(first).toMatchObject({ code: 0, out: expect.stringContaining("Installed for mesh team-a") });
    const s = json(settings);
    expect(s.model).toBe("opus");
    const commands = (event: string) =>
      (s.hooks[event] as { hooks: { command: string }[] }[]).flatMap((e) => e.hooks.map((h) => h.command));
    const meshId = new ConfigStore(home).select("team-a").meshId;
    expect(commands("Stop")).toEqual([
      "say done",
      expect.stringMatching(/mesh\.mjs hook set-status idle --mesh team-a --pid \$PPID --hook-input$/),
    ]);
    expect(commands("UserPromptSubmit")).toEqual([
      expect.stringMatching(/hook set-status working --mesh team-a --pid \$PPID --hook-input$/),
      expect.stringMatching(new RegExp(`mesh\\.mjs hook inject --mesh ${meshId} --pid \\$PPID$`)),
    ]);
    expect(commands("PostToolUse")).toEqual([
      expect.stringMatching(new RegExp(`mesh\\.mjs hook inject --mesh ${meshId} --pid \\$PPID$`)),
    ]);
    expect(commands("SessionEnd")).toEqual([
      expect.stringMatching(/hook set-status offline --mesh team-a --pid \$PPID --hook-input$/),
    ]);
    const m = json(mcp);
    expect(m.projects).toEqual({ x: 1 });
    expect(m.mcpServers.other).toEqual({ command: "other-server" });
    expect(m.mcpServers.mesh).toEqual({
      command: process.execPath,
      args: [expect.stringMatching(/mesh\.mjs$/), "mcp", "--mesh", "team-a", "--session", "auto", "--channel", "off"],
      env: { MESH_HOME: home },
    });
    expect(backups()).toBe(2);

    // Channels asked for: the server pushes channel events, and the answer says how to start Claude Code.
    const withChannels = await run(["install", "claude-code", "--channels"]);
    expect(withChannels.out).toContain("claude --dangerously-load-development-channels server:mesh");
    expect(json(mcp).mcpServers.mesh.args.slice(-2)).toEqual(["--channel", "on"]);
    expect((await run(["install", "claude-code"])).out).toContain("through the hooks");
    expect(backups()).toBe(4);

    // Again: nothing changes, nothing is doubled, no new backup.
    const again = await run(["install", "claude-code"]);
    expect(again.out).toBe("Already installed; nothing changed.");
    expect(json(settings)).toEqual(s);
    expect(backups()).toBe(4);

    const removed = await run(["uninstall", "claude-code"]);
    expect(removed).toMatchObject({ code: 0, out: expect.stringContaining("Uninstalled") });
    expect(json(settings)).toEqual(mine);
    expect(json(mcp)).toEqual({ projects: { x: 1 }, mcpServers: { other: { command: "other-server" } } });
    expect((await run(["uninstall", "claude-code"])).out).toBe("Not installed; nothing changed.");
  });

  it("refuses a settings file that is not JSON, changing nothing", async () => {
    writeFileSync(settings, "{ not json");
    const r = await run(["install", "claude-code"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("is not a JSON object");
    expect(readFileSync(settings, "utf8")).toBe("{ not json");
    expect((await run(["install", "cursor"])).code).toBe(2);
  });
});

describe("mesh doctor", () => {
  it("checks privacy, keys, each broker's /health and the installation, failing on what is wrong", async () => {
    const doctorHome = mkdtempSync(path.join(os.tmpdir(), "mesh-doctor-"));
    const server = http.createServer((req, res) => res.writeHead(req.url === "/health" ? 200 : 404).end("{}"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      const store = new ConfigStore(doctorHome);
      const base = {
        version: 1 as const,
        role: "member",
        displayName: "Me",
        joinedAt: new Date().toISOString(),
        meshRootKey: toBase64Url(nacl.randomBytes(32)),
        signSeed: toBase64Url(secrets.signSeed),
        boxSecretKey: toBase64Url(secrets.boxSecretKey),
      };
      store.save({
        ...base,
        meshId: randomUUID(),
        meshSlug: "up",
        memberId: randomUUID(),
        brokerUrl: `ws://127.0.0.1:${port}`,
      });
      const doctor = async () => {
        const t = memoryIo({ MESH_HOME: doctorHome, HOME: doctorHome });
        return { code: await main(["doctor"], t.io), out: t.out.join("\n") };
      };
      let r = await doctor();
      expect(r.code).toBe(0);
      expect(r.out).toContain(`ok    mesh up: broker http://127.0.0.1:${port}/health answers`);
      expect(r.out).toMatch(/^ok {4}.*private/m);
      expect(r.out).toMatch(/^warn {2}Claude Code \(user\): no mesh server, no status hooks, no message hooks/m);
      // A broker that does not answer, and a file others can read: both fail.
      store.save({
        ...base,
        meshId: randomUUID(),
        meshSlug: "down",
        memberId: randomUUID(),
        brokerUrl: "ws://127.0.0.1:1",
      });
      chmodSync(store.fileOf(store.select("up").meshId), 0o644);
      r = await doctor();
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^FAIL {2}mesh down: broker http:\/\/127\.0\.0\.1:1\/health unreachable/m);
      expect(r.out).toMatch(/^FAIL {2}not private: .*\(644\)/m);
    } finally {
      server.close();
      rmSync(doctorHome, { recursive: true, force: true });
    }
  });
});
