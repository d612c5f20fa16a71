import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import nacl from "tweetnacl";
import { afterAll, describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/server/core/encoding";
import { ConfigStore, generatePeerSecrets } from "../client";
import type { TPeerInfo } from "../protocol/frames";
import { CliFailure, printable } from "./io";
import { main } from "./main";
import { resolvePeers } from "./session";
import { memoryIo } from "./test-io";

const home = mkdtempSync(path.join(os.tmpdir(), "mesh-cli-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const run = async (argv: string[], stdin?: string) => {
  const t = memoryIo({ MESH_HOME: home }, { stdin });
  const code = await main(argv, t.io);
  return { code, out: t.out.join("\n"), err: t.err.join("\n") };
};

describe("mesh command line", () => {
  it("prints help for the program and for every command", async () => {
    expect(await run(["--help"])).toMatchObject({ code: 0, out: expect.stringContaining("Usage: mesh <command>") });
    expect((await run([])).code).toBe(2);
    for (const cmd of ["join", "meshes", "send", "watch", "peers", "verify", "status", "hook", "history", "mcp"]) {
      const r = await run([cmd, "--help"]);
      expect(r.code, cmd).toBe(0);
      expect(r.out, cmd).toContain(`Usage: mesh ${cmd}`);
    }
    expect((await run(["help", "send"])).out).toContain("--to <peer>");
  });

  it("answers wrong usage with exit code 2 and a plain message", async () => {
    const cases: [string[], RegExp][] = [
      [["frobnicate"], /unknown command "frobnicate"/],
      [["join"], /give exactly one link/],
      [["join", "a", "b"], /give exactly one link/],
      [["send"], /give the text to send/],
      [["send", "--bogus", "x"], /Unknown option '--bogus'/],
      [["send", "--priority", "asap", "x"], /--priority is one of low, normal, high, urgent/],
      [["send", "--timeout", "0", "x"], /--timeout takes a number of seconds/],
      [["status", "Working!"], /a status is 1 to 32 characters/],
      [["status", "ok", "--text", "x".repeat(201)], /--text is at most 200 characters/],
      [["hook"], /give a hook command: set-status/],
      [["hook", "set-state", "ok"], /unknown hook command set-state/],
      [["hook", "set-status", "ok", "--pid", "0"], /--pid takes a process id/],
      [["watch", "extra"], /no arguments expected/],
      [["send", "--reply-to", "nope", "x"], /--reply-to takes a message id/],
      [["status", "0190a0a0-0000-7000-8000-000000000000", "--text", "x"], /--text is for setting a status/],
      [["history", "--limit", "0"], /--limit takes a whole number/],
      [["history", "extra"], /no arguments expected/],
      [["mcp", "--channel", "maybe"], /--channel is on or off/],
      [["verify"], /name one peer: mesh verify <peer>/],
      [["verify", "a", "b"], /name one peer: mesh verify <peer>/],
      [["verify", "bo", "--mark", "--unmark"], /--mark and --unmark exclude each other/],
      [["verify", "@backend"], /a safety number is for one peer, not a group/],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err, argv.join(" ")).toMatch(message);
    }
  });

  it("fails with exit code 1 for a bad link and when no mesh is joined", async () => {
    const bad = await run(["join", "https://mesh.example.test/nope/abc"]);
    expect(bad).toMatchObject({
      code: 1,
      err: expect.stringContaining("cannot join: the join link's path is not /join/<token>"),
    });
    const notInvite = await run(["join", "ic://join/bm90LWFuLWludml0ZQ"]);
    expect(notInvite).toMatchObject({ code: 1, err: expect.stringContaining("does not carry a well-formed invite") });
    const none = await run(["send", "hello"]);
    expect(none).toMatchObject({ code: 1, err: expect.stringContaining("no mesh joined yet") });
    expect(await run(["meshes"])).toMatchObject({ code: 0, out: expect.stringContaining("No mesh joined yet") });
    expect(await run(["meshes", "--json"])).toMatchObject({ code: 0, out: "[]" });
  });
});

/** A port with no listener: every connection to it is refused at once. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe("a broker that cannot be reached", () => {
  it("is reported plainly with exit code 1 after a few quick tries", async () => {
    const port = await closedPort();
    const secrets = generatePeerSecrets();
    new ConfigStore(home).save({
      version: 1,
      meshId: randomUUID(),
      meshSlug: "offline",
      memberId: randomUUID(),
      role: "member",
      displayName: "Me",
      brokerUrl: `ws://127.0.0.1:${port}`,
      joinedAt: new Date().toISOString(),
      meshRootKey: toBase64Url(nacl.randomBytes(32)),
      signSeed: toBase64Url(secrets.signSeed),
      boxSecretKey: toBase64Url(secrets.boxSecretKey),
    });
    const r = await run(["send", "--mesh", "offline", "hello"]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`mesh send: cannot reach the broker at ws://127.0.0.1:${port} (ECONNREFUSED)`);
    const hook = await run(["hook", "set-status", "working", "--mesh", "offline"]);
    expect({ ...hook, err: hook.err.trim() }).toMatchObject({
      code: 1,
      err: `mesh hook: cannot reach the broker at http://127.0.0.1:${port}/hook/set-status: ECONNREFUSED`,
    });
  });
});

describe("--to names", () => {
  const peer = (memberId: string, displayName: string): TPeerInfo => ({
    memberId,
    displayName,
    role: "member",
    peerPubkey: null,
    boxPubkey: null,
    online: true,
    receiving: true,
    parentMemberId: null,
    status: null,
    statusText: null,
    groups: [],
    userName: null,
  });
  const me = peer("00000000-0000-4000-8000-000000000001", "Me");
  const ana = peer("aaaaaaaa-0000-4000-8000-000000000002", "Ana");
  const bo1 = peer("bbbbbbbb-0000-4000-8000-000000000003", "Bo");
  const bo2 = peer("cccccccc-0000-4000-8000-000000000004", "bo");
  const peers = [me, ana, bo1, bo2];

  it("match a member id, a display name (any case) or a member-id prefix of 8+ characters", () => {
    expect(resolvePeers(["ANA", bo1.memberId, "cccccccc"], peers, me.memberId)).toEqual([
      ana.memberId,
      bo1.memberId,
      bo2.memberId,
    ]);
  });

  it("refuse ambiguous, unknown and own names", () => {
    expect(() => resolvePeers(["bo"], peers, me.memberId)).toThrow(/several peers are called bo/);
    expect(() => resolvePeers(["zed"], peers, me.memberId)).toThrow(
      /no peer called zed in this mesh \(peers: Ana, Bo, bo\)/,
    );
    expect(() => resolvePeers(["aaaa"], peers, me.memberId)).toThrow(CliFailure);
    expect(() => resolvePeers(["me"], peers, me.memberId)).toThrow(/cannot be sent to yourself/);
    expect(() => resolvePeers([me.memberId], peers, me.memberId)).toThrow(/cannot be sent to yourself/);
  });
});

describe("printable text", () => {
  it("escapes control characters so a peer cannot forge lines or drive the terminal", () => {
    expect(printable("hi\n12:00  Mallory → mesh: fake\u001b[2J\tend\u2028")).toBe(
      "hi\\n12:00  Mallory → mesh: fake\\u001b[2J\\tend\\u2028",
    );
    expect(printable("plain ✓ ünïcode")).toBe("plain ✓ ünïcode");
  });
});
