// Issue 41, attack 1: after `mesh login`, `mesh join <link>` must send the account's token (`mdt_…`) only to
// a broker the account's own web app vouches for (its PUBLIC_BROKER_URL and TRUSTED_BROKER_URLS, answered by
// the device whoami). A link signed with its own key and naming another broker gets a refusal that names the
// broker and points to --anonymous; with --anonymous the join goes there without the account.
// The web's REST is handled in-process; the attacker's broker is a loopback listener that records what it gets.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decideDeviceLogin,
  pollDeviceLogin,
  revokeDeviceToken,
  startDeviceLogin,
} from "@/server/services/devices/device-login";
import { freePort, testDb } from "@/test/helpers";
import { startRestWeb } from "./test-web";
import { ctxOf, makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { ConfigStore } from "../client";
import { meshForBroker } from "../client/test-mesh";
import { startBroker, type TestBroker } from "../test-support";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const BIN = path.join(ROOT, "broker", "cli", "mesh.mjs");
const db = testDb();
let broker: TestBroker;
let web: http.Server;
let webUrl = "";
let attacker: http.Server;
let attackerWs = "";
const received: { path: string; body: string }[] = [];
const homes: string[] = [];

async function startWeb(): Promise<void> {
  ({ server: web, url: webUrl } = await startRestWeb(db));
}

/** A "broker" that keeps every request it gets and answers every join with a refusal. */
async function startAttacker(): Promise<void> {
  const port = await freePort();
  attacker = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(403, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "invite_revoked", message: "nothing here" } }));
    });
  });
  await new Promise<void>((resolve) => attacker.listen(port, "127.0.0.1", resolve));
  attackerWs = `ws://127.0.0.1:${port}`;
}

beforeAll(async () => {
  broker = await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" });
  // The web app vouches for the real broker (the test's PUBLIC_BROKER_URL is a name that resolves nowhere).
  process.env.TRUSTED_BROKER_URLS = `${broker.ws}/`;
  await Promise.all([startWeb(), startAttacker()]);
});
afterAll(async () => {
  await broker.close();
  await new Promise((r) => web.close(r));
  await new Promise((r) => attacker.close(r));
  await db.$disconnect();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** A MESH_HOME signed in (the device flow through its services) as a new user. */
async function signedInHome() {
  const user = await makeUser(db, { name: "Vera Victim" });
  const started = await startDeviceLogin(visitorCtx(db), { clientName: "vera-laptop" });
  await decideDeviceLogin(ctxOf(db, user), { userCode: started.userCode, approve: true, password: "a-long-password" });
  const polled = await pollDeviceLogin(visitorCtx(db), { deviceCode: started.deviceCode });
  if (polled.status !== "approved") throw new Error(`login not approved: ${polled.status}`);
  const home = mkdtempSync(path.join(os.tmpdir(), "mesh-trust-"));
  homes.push(home);
  new ConfigStore(home).saveAccount({
    version: 1,
    webUrl,
    token: polled.token,
    name: polled.user.name,
    email: polled.user.email,
    loggedInAt: new Date().toISOString(),
  });
  return { user, home, token: polled.token };
}

function run(home: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, MESH_HOME: home, MESH_WEB_URL: webUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, out, err })));
}

describe("mesh join sends the account token only to a broker the web app vouches for", () => {
  it("refuses a link to another broker, naming it, and sends it nothing", { timeout: 60_000 }, async () => {
    const { home, token } = await signedInHome();
    const { invite } = await meshForBroker(db, attackerWs);
    received.length = 0;

    const joined = await run(home, ["join", invite.inviteLink, "--name", "vera-laptop"]);

    expect(received.filter((r) => r.body.includes(token))).toEqual([]);
    expect(received).toEqual([]);
    expect(joined.code).toBe(1);
    expect(joined.err).toContain(attackerWs);
    expect(joined.err).toContain("--anonymous");
    expect(joined.out + joined.err).not.toContain(token);
  });

  it("joins such a broker without the account when asked to (--anonymous)", { timeout: 60_000 }, async () => {
    const { home, token } = await signedInHome();
    const { invite } = await meshForBroker(db, attackerWs);
    received.length = 0;

    const joined = await run(home, ["join", invite.inviteLink, "--anonymous"]);

    expect(joined.code).toBe(1); // the fake broker refuses every join
    expect(received).toHaveLength(1);
    expect(received[0]?.path).toBe("/join");
    expect(received[0]?.body).not.toContain(token);
    expect(JSON.parse(received[0]?.body ?? "{}")).not.toHaveProperty("accountToken");
  });

  it("sends nothing when the web app cannot vouch: a revoked sign-in", { timeout: 60_000 }, async () => {
    const { home, token } = await signedInHome();
    await revokeDeviceToken(visitorCtx(db), { token });
    const { invite } = await meshForBroker(db, attackerWs);
    received.length = 0;

    const joined = await run(home, ["join", invite.inviteLink]);

    expect(joined.code).toBe(1);
    expect(joined.err).toContain("sign-in was revoked");
    expect(received).toEqual([]);
  });

  it("still links the join to the account on a vouched broker", { timeout: 60_000 }, async () => {
    const { user, home } = await signedInHome();
    const { mesh: m, invite } = await meshForBroker(db, broker.ws);

    const joined = await run(home, ["join", invite.inviteLink, "--name", "vera-laptop"]);

    expect(joined).toMatchObject({ code: 0, out: expect.stringContaining("Linked to your account Vera Victim") });
    const device = await db.member.findFirstOrThrow({ where: { meshId: m.id, peerPubkey: { not: null } } });
    expect(device.userId).toBe(user.id);
  });
});
