// Issue 18, points 2 and 3 from the command line: `mesh login` (device flow against the web app's REST
// routes on a real socket), a join linked to the user, `mesh whoami`, `mesh leave` across two broker
// nodes, `mesh logout`. Real processes, real sockets, real PostgreSQL.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { testDb } from "@/test/helpers";
import { startRestWeb } from "./test-web";
import { makeUser } from "@/test/mesh-fixtures";
import { ConfigStore, MeshClient } from "../client";
import { meshForBroker } from "../client/test-mesh";
import { eventually, startBroker, type TestBroker } from "../test-support";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const BIN = path.join(ROOT, "broker", "cli", "mesh.mjs");
const db = testDb();
const as = (user: SessionUser) => createCaller(createContext({ user, db }));
let nodeA: TestBroker;
let nodeB: TestBroker;
let web: http.Server;
let webUrl = "";
const homes: string[] = [];
const clients: MeshClient[] = [];

async function startWeb(): Promise<void> {
  ({ server: web, url: webUrl } = await startRestWeb(db));
}

beforeAll(async () => {
  [nodeA, nodeB] = [
    await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" }),
    await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" }),
  ];
  // The web app vouches for both nodes, so `mesh join` sends them the account's token (issue 41).
  process.env.TRUSTED_BROKER_URLS = `${nodeA.ws},${nodeB.ws}`;
  await startWeb();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([nodeA.close(), nodeB.close()]);
  await new Promise((r) => web.close(r));
  await db.$disconnect();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function mesh(home: string, args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, MESH_HOME: home, MESH_WEB_URL: webUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { stdout: () => out, stderr: () => err, exited };
}
async function done(home: string, args: string[]) {
  const p = mesh(home, args);
  return { code: await p.exited, out: p.stdout(), err: p.stderr() };
}
const newHome = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mesh-login-"));
  homes.push(dir);
  return dir;
};

describe("mesh login, join, leave and logout", () => {
  it(
    "signs a machine in, links its join to the user, leaves on every node, and signs out",
    { timeout: 90_000 },
    async () => {
      const user = await makeUser(db, { name: "Lena Login" });
      const home = newHome();

      // mesh login: the code goes to the person (stderr); they approve it on the web page.
      const login = mesh(home, ["login", "--name", "lena-laptop"]);
      await eventually(async () => /confirm the code [A-Z]{4}-[A-Z]{4}/.test(login.stderr()), 20_000);
      expect(login.stderr()).toContain(`${webUrl}/device?code=`);
      const userCode = /confirm the code ([A-Z]{4}-[A-Z]{4})/.exec(login.stderr())?.[1] ?? "";
      expect(await as(user).my.deviceLogin({ userCode })).toMatchObject({ clientName: "lena-laptop" });
      await as(user).my.decideDeviceLogin({ userCode, approve: true, password: "a-long-password" });
      expect(await login.exited).toBe(0);
      expect(login.stdout()).toContain(`Signed in as Lena Login <${user.email}> at ${webUrl}.`);
      const accountFile = path.join(home, "account.json");
      expect(statSync(accountFile).mode & 0o777).toBe(0o600);
      const token = (JSON.parse(readFileSync(accountFile, "utf8")) as { token: string }).token;
      expect(login.stdout() + login.stderr()).not.toContain(token);
      expect(await done(home, ["whoami"])).toMatchObject({ code: 0, out: `Lena Login <${user.email}> at ${webUrl}\n` });

      // Lena joined in the browser; mesh join adds this machine as her device. One mesh, one device.
      const { owner, mesh: m, invite } = await meshForBroker(db, nodeA.ws);
      await as(user).my.joinMesh({ token: invite.token });
      const joined = await done(home, ["join", invite.inviteLink, "--name", "lena-laptop"]);
      expect(joined).toMatchObject({ code: 0, out: expect.stringContaining("Linked to your account Lena Login") });
      const device = await db.member.findFirstOrThrow({ where: { meshId: m.id, peerPubkey: { not: null } } });
      expect(device.userId).toBe(user.id);
      expect((await as(user).my.export()).meshesJoined).toEqual([
        expect.objectContaining({
          id: m.id,
          devices: [expect.objectContaining({ displayName: "lena-laptop", revokedAt: null })],
        }),
      ]);

      // The device is connected to node B; `mesh leave` goes to node A (the invite's broker).
      const config = new ConfigStore(home).select(m.slug);
      const onB = new MeshClient({ ...config, brokerUrl: nodeB.ws });
      clients.push(onB);
      await onB.connect();
      // The owner's view: Lena's device, online, grouped under her account.
      const ownerView = await as(owner).my.mesh({ meshId: m.id });
      expect(ownerView.members.filter((x) => x.userId === user.id)).toEqual([
        expect.objectContaining({ peerPubkey: null, userName: "Lena Login" }),
        expect.objectContaining({ id: device.id, userName: "Lena Login", displayName: "lena-laptop", online: true }),
      ]);
      const ended = new Promise<string>((resolve) => onB.once("fatal", (e) => resolve(e.code)));
      const left = await done(home, ["leave", "--mesh", m.slug]);
      expect(left).toMatchObject({ code: 0, out: `Left mesh ${m.slug}; its keys are deleted from this machine.\n` });
      expect(await ended).toBe("left");
      expect(existsSync(path.join(home, "meshes", `${m.id}.json`))).toBe(false);
      expect((await db.member.findUniqueOrThrow({ where: { id: device.id } })).revokedAt).toBeInstanceOf(Date);
      expect(
        await db.auditEvent.count({
          where: { meshId: m.id, eventType: "member_left", actorMemberId: device.id, actorUserId: user.id },
        }),
      ).toBe(1);
      // Only the device left: Lena is still a member through the browser.
      expect((await as(user).my.meshes({})).items.map((i) => i.id)).toEqual([m.id]);

      // mesh logout: the token is revoked at the web app; joins with it would be refused.
      expect(await done(home, ["logout"])).toMatchObject({ code: 0, out: "Signed out; the token is revoked.\n" });
      expect(existsSync(accountFile)).toBe(false);
      expect((await done(home, ["whoami"])).code).toBe(1);
      expect((await db.deviceToken.findFirstOrThrow({ where: { userId: user.id } })).revokedAt).toBeInstanceOf(Date);
    },
  );

  it("stops with the reason when the login is denied", { timeout: 60_000 }, async () => {
    const user = await makeUser(db);
    const home = newHome();
    const login = mesh(home, ["login"]);
    await eventually(async () => /confirm the code [A-Z]{4}-[A-Z]{4}/.test(login.stderr()), 20_000);
    const userCode = /confirm the code ([A-Z]{4}-[A-Z]{4})/.exec(login.stderr())?.[1] ?? "";
    await as(user).my.decideDeviceLogin({ userCode, approve: false });
    expect(await login.exited).toBe(1);
    expect(login.stderr()).toContain("mesh login: the login was denied on the web page");
    expect(existsSync(path.join(home, "account.json"))).toBe(false);
  });
});
