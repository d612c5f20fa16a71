// Issue 41, deliverable 2: a command-line login that expired or was ended says so, and what to do,
// when `mesh whoami` asks the web app (real REST routes on a loopback socket, real PostgreSQL).
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { findSessionUser, openSession } from "@/server/auth/sessions";
import { testDb } from "@/test/helpers";
import { startRestWeb } from "./test-web";
import { makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { pollDeviceLogin, startDeviceLogin } from "@/server/services/devices/device-login";
import { ConfigStore } from "../client";
import { main } from "./main";
import { memoryIo } from "./test-io";

const db = testDb();
let web: http.Server;
let webUrl = "";
const homes: string[] = [];

beforeAll(async () => {
  ({ server: web, url: webUrl } = await startRestWeb(db));
});
afterAll(async () => {
  await new Promise((r) => web.close(r));
  await db.$disconnect();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** A machine signed in as `user` (the device flow through the services), its account file written. */
async function signedInHome(user: SessionUser) {
  const started = await startDeviceLogin(visitorCtx(db), { clientName: "expiring-laptop" });
  const session = await findSessionUser(db, await openSession(db, user.id));
  await createCaller(createContext({ user: { ...user, sessionId: session?.sessionId }, db })).my.decideDeviceLogin({
    userCode: started.userCode,
    approve: true,
  });
  const polled = await pollDeviceLogin(visitorCtx(db, new Date(Date.now() + 10_000)), {
    deviceCode: started.deviceCode,
  });
  if (polled.status !== "approved") throw new Error(polled.status);
  const home = mkdtempSync(path.join(os.tmpdir(), "mesh-expiry-"));
  homes.push(home);
  new ConfigStore(home).saveAccount({
    version: 1,
    webUrl,
    token: polled.token,
    name: user.name,
    email: user.email,
    loggedInAt: new Date().toISOString(),
  });
  return { home, token: polled.token };
}

async function whoami(home: string) {
  const { io, out, err } = memoryIo({ MESH_HOME: home });
  const code = await main(["whoami"], io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("mesh whoami after the login ended", () => {
  it("says the login expired and to run mesh login", { timeout: 30_000 }, async () => {
    const user = await makeUser(db, { name: "Ezra Expired" });
    const { home } = await signedInHome(user);
    expect(await whoami(home)).toMatchObject({ code: 0, out: `Ezra Expired <${user.email}> at ${webUrl}` });
    await db.deviceToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await whoami(home)).toEqual({
      code: 1,
      out: "",
      err: "mesh whoami: your login expired (unused for 30 days, or 90 days old); run mesh login",
    });
  });

  it("says the login was ended (signed out elsewhere) and to run mesh login", { timeout: 30_000 }, async () => {
    const user = await makeUser(db);
    const { home } = await signedInHome(user);
    await db.deviceToken.updateMany({ where: { userId: user.id }, data: { revokedAt: new Date() } });
    expect((await whoami(home)).err).toBe(
      "mesh whoami: this machine's login was ended (signed out from the web app, password changed, or mesh logout); run mesh login",
    );
  });
});
