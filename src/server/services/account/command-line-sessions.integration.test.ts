// Issue 41, attack 3 and deliverable 2: command-line tokens (`mesh login`) are sessions. They expire
// (idle lifetime renewed by use, absolute cap), are listed with the browser sessions and ended there one
// by one (only by their owner), end with "sign out other sessions", a password change and account
// deletion, and approving one needs a recent sign-in or the password again.
import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { findSessionUser, openSession } from "@/server/auth/sessions";
import { CLIENT_ADDRESS_HEADER } from "@/server/core/client-address";
import { makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { restAs } from "@/test/rest";
import { trpcOutcome } from "@/test/rejection";
import { DEVICE_POLL_INTERVAL_S, pollDeviceLogin, startDeviceLogin, userOfDeviceToken } from "../devices/device-login";
import { signOutEverywhere } from "./sign-out-everywhere";

const db = testDb();
afterAll(() => db.$disconnect());

const DAY_MS = 24 * 60 * 60_000;
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);
const codeOf = (p: Promise<unknown>) => trpcOutcome(p);

/** A caller signed in on `sessionId`, from its own client address (the password limiter counts per address). */
const as = (user: SessionUser, sessionId?: string) =>
  createCaller(
    createContext({
      user: { ...user, ...(sessionId ? { sessionId } : {}) },
      db,
      headers: new Headers({ [CLIENT_ADDRESS_HEADER]: `198.51.100.${Math.floor(Math.random() * 250)}` }),
    }),
  );

/** Opens a browser session as a sign-in does (signed in `agoMs` ago); returns its secret and row id. */
async function session(user: SessionUser, agoMs = 0) {
  const secret = await openSession(db, user.id, { userAgent: "vitest" });
  const found = await findSessionUser(db, secret);
  if (!found) throw new Error("session not opened");
  if (agoMs > 0)
    await db.session.update({ where: { id: found.sessionId }, data: { createdAt: new Date(Date.now() - agoMs) } });
  return { secret, id: found.sessionId };
}

/** `mesh login` to its end: started, approved from a session signed in just now, polled once. */
async function cliToken(user: SessionUser, clientName = "laptop") {
  const started = await startDeviceLogin(visitorCtx(db), { clientName });
  const fresh = await session(user);
  await as(user, fresh.id).my.decideDeviceLogin({ userCode: started.userCode, approve: true });
  const polled = await pollDeviceLogin(visitorCtx(db, later(new Date(), DEVICE_POLL_INTERVAL_S * 1000)), {
    deviceCode: started.deviceCode,
  });
  if (polled.status !== "approved") throw new Error(`login not approved: ${polled.status}`);
  return polled.token;
}

const works = async (token: string, at?: Date) => (await userOfDeviceToken(visitorCtx(db, at), { token })) !== null;

describe("command-line tokens end with the account's sessions", () => {
  it("'sign out other sessions' ends every command-line token of the user, not other users'", async () => {
    const [user, other] = [await makeUser(db), await makeUser(db)];
    const token = await cliToken(user);
    const theirs = await cliToken(other);
    const here = await session(user);
    expect(await works(token)).toBe(true);
    await as(user, here.id).my.revokeOtherSessions();
    expect(await works(token)).toBe(false);
    expect((await restAs(db, null, "POST", "/public/device/whoami", { token })).status).toBe(401);
    expect(await works(theirs)).toBe(true);
    expect(await findSessionUser(db, here.secret)).not.toBeNull();
  });

  it("a password change ends every command-line token of the user", async () => {
    const user = await makeUser(db);
    const token = await cliToken(user);
    const here = await session(user);
    await as(user, here.id).my.changePassword({
      currentPassword: "a-long-password",
      newPassword: "a-brand-new-password",
      confirmPassword: "a-brand-new-password",
    });
    expect(await works(token)).toBe(false);
  });

  it("account deletion ends the command-line tokens with the account", async () => {
    const user = await makeUser(db);
    const token = await cliToken(user);
    await as(user).my.deleteAccount({ confirmEmail: user.email });
    expect(await works(token)).toBe(false);
    expect(await db.deviceToken.count({ where: { userId: user.id } })).toBe(0);
  });

  it("the shared step also refuses a login approved but not yet collected by its terminal", async () => {
    const user = await makeUser(db);
    const started = await startDeviceLogin(visitorCtx(db), { clientName: "pending-laptop" });
    const fresh = await session(user);
    await as(user, fresh.id).my.decideDeviceLogin({ userCode: started.userCode, approve: true });
    await db.$transaction((tx) => signOutEverywhere(tx, { userId: user.id, now: new Date() }));
    expect(
      await pollDeviceLogin(visitorCtx(db, later(new Date(), DEVICE_POLL_INTERVAL_S * 1000)), {
        deviceCode: started.deviceCode,
      }),
    ).toEqual({ status: "denied" });
  });
});

describe("command-line tokens expire", () => {
  it("stops working after 30 days without use; each use renews it, up to 90 days after the login", async () => {
    const user = await makeUser(db);
    const t0 = new Date();
    const idle = await cliToken(user, "idle");
    expect(await works(idle, later(t0, 29 * DAY_MS))).toBe(true);
    const fresh = await cliToken(user, "used");
    expect(await works(fresh, later(t0, 31 * DAY_MS + 60_000))).toBe(false);

    // Used every 25 days: alive at 75 days, but never past 90 days after the login.
    const busy = await cliToken(user, "busy");
    for (const day of [25, 50, 75]) expect(await works(busy, later(t0, day * DAY_MS))).toBe(true);
    expect(await works(busy, later(t0, 91 * DAY_MS))).toBe(false);
  });

  it("whoami says the token expired (device_token_expired), and a revoked one is device_token_invalid", async () => {
    const user = await makeUser(db);
    const token = await cliToken(user);
    const row = await db.deviceToken.findFirstOrThrow({ where: { userId: user.id } });
    await db.deviceToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await restAs(db, null, "POST", "/public/device/whoami", { token });
    expect(expired.status).toBe(401);
    expect(expired.json.error?.message).toBe("device_token_expired");
    const revoked = await cliToken(user);
    await restAs(db, null, "POST", "/public/device/logout", { token: revoked });
    expect((await restAs(db, null, "POST", "/public/device/whoami", { token: revoked })).json.error?.message).toBe(
      "device_token_invalid",
    );
  });
});

describe("expired command-line tokens are swept", () => {
  it("a token expired more than 30 days ago goes as new logins start; a recently expired one stays", async () => {
    const user = await makeUser(db);
    const [old, recent] = [await cliToken(user, "old"), await cliToken(user, "recent")];
    const byName = async (name: string) => db.deviceToken.findFirst({ where: { userId: user.id, name } });
    await db.deviceToken.update({
      where: { id: (await byName("old"))!.id },
      data: { expiresAt: new Date(Date.now() - 31 * DAY_MS) },
    });
    await db.deviceToken.update({
      where: { id: (await byName("recent"))!.id },
      data: { expiresAt: new Date(Date.now() - DAY_MS) },
    });
    await startDeviceLogin(visitorCtx(db), { clientName: "sweeper" });
    expect(await byName("old")).toBeNull();
    expect(await byName("recent")).not.toBeNull();
    expect(await works(old)).toBe(false);
    expect(await works(recent)).toBe(false);
  });
});

describe("command-line tokens in the sessions list", () => {
  it("lists the user's live tokens with device name, last use and expiry, and the owner ends one", async () => {
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const here = await session(a);
    const token = await cliToken(a, "cleo-laptop");
    const gone = await cliToken(a, "old-laptop");
    await restAs(db, null, "POST", "/public/device/logout", { token: gone });
    await userOfDeviceToken(visitorCtx(db), { token });
    const theirs = await cliToken(b, "bobs-laptop");

    const items = (await as(a, here.id).my.sessions()).items;
    const cli = items.filter((s) => s.kind === "command_line");
    expect(cli).toEqual([
      expect.objectContaining({ kind: "command_line", name: "cleo-laptop", current: false, userAgent: null }),
    ]);
    const [entry] = cli;
    expect(entry!.expires.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    expect(entry!.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(items.find((s) => s.id === here.id)).toMatchObject({ kind: "browser", current: true });
    expect(JSON.stringify(items)).not.toContain(token);
    expect(JSON.stringify(items)).not.toContain("bobs-laptop");

    // B cannot end A's token (answered as a session that does not exist); A can.
    expect(await codeOf(as(b).my.revokeSession({ sessionId: entry!.id, kind: "command_line" }))).toBe(
      "NOT_FOUND:session_not_found",
    );
    expect(await works(token)).toBe(true);
    // Through REST as the settings API documents it: DELETE /my/sessions/{id}?kind=command_line.
    const ended = await restAs(
      db,
      { ...a, sessionId: here.id },
      "DELETE",
      `/my/sessions/${entry!.id}?kind=command_line`,
    );
    expect(ended).toMatchObject({ status: 200, json: { sessionId: entry!.id, signedOut: true } });
    expect(await works(token)).toBe(false);
    expect(await works(theirs)).toBe(true);
    expect((await as(a, here.id).my.sessions()).items.filter((s) => s.kind === "command_line")).toEqual([]);
    expect(await codeOf(as(a).my.revokeSession({ sessionId: entry!.id, kind: "command_line" }))).toBe(
      "NOT_FOUND:session_not_found",
    );
  });
});

describe("approving a command-line login needs a recent sign-in or the password", () => {
  it("refuses a session signed in long ago without the password; the right password approves", async () => {
    const user = await makeUser(db);
    const old = await session(user, 60 * 60_000);
    const started = await startDeviceLogin(visitorCtx(db), { clientName: "stolen-session" });
    expect(await codeOf(as(user, old.id).my.decideDeviceLogin({ userCode: started.userCode, approve: true }))).toBe(
      "FORBIDDEN:reauth_required",
    );
    expect(
      await codeOf(
        as(user, old.id).my.decideDeviceLogin({ userCode: started.userCode, approve: true, password: "guess-1234" }),
      ),
    ).toBe("BAD_REQUEST:current_password_wrong");
    // No session at all (an API caller without a browser session) is not a recent sign-in either.
    expect(await codeOf(as(user).my.decideDeviceLogin({ userCode: started.userCode, approve: true }))).toBe(
      "FORBIDDEN:reauth_required",
    );
    expect(
      await pollDeviceLogin(visitorCtx(db, later(new Date(), DEVICE_POLL_INTERVAL_S * 1000)), {
        deviceCode: started.deviceCode,
      }),
    ).toEqual({ status: "pending" });
    expect(await as(user, old.id).my.deviceLogin({ userCode: started.userCode })).toMatchObject({
      reauth: "password",
    });
    // Denying needs nothing.
    const other = await startDeviceLogin(visitorCtx(db), { clientName: "deny-me" });
    expect(await as(user, old.id).my.decideDeviceLogin({ userCode: other.userCode, approve: false })).toMatchObject({
      approved: false,
    });

    expect(
      await as(user, old.id).my.decideDeviceLogin({
        userCode: started.userCode,
        approve: true,
        password: "a-long-password",
      }),
    ).toMatchObject({ approved: true });
  });

  it("a session signed in within the last minutes approves without the password", async () => {
    const user = await makeUser(db);
    const recent = await session(user, 60_000);
    const started = await startDeviceLogin(visitorCtx(db), { clientName: "mine" });
    expect(await as(user, recent.id).my.deviceLogin({ userCode: started.userCode })).toMatchObject({ reauth: "none" });
    expect(await as(user, recent.id).my.decideDeviceLogin({ userCode: started.userCode, approve: true })).toMatchObject(
      { approved: true },
    );
  });

  it("an account without a password must have signed in recently (a password is no way in)", async () => {
    const row = await db.user.create({ data: { email: `${uid("oauth")}@example.test`, name: "OAuth" } });
    const user: SessionUser = { id: row.id, email: row.email ?? "", name: row.name, isAdmin: false };
    const old = await session(user, 60 * 60_000);
    const started = await startDeviceLogin(visitorCtx(db), { clientName: "oauth-laptop" });
    expect(await as(user, old.id).my.deviceLogin({ userCode: started.userCode })).toMatchObject({
      reauth: "sign_in",
    });
    expect(
      await codeOf(
        as(user, old.id).my.decideDeviceLogin({
          userCode: started.userCode,
          approve: true,
          password: "anything-at-all",
        }),
      ),
    ).toBe("FORBIDDEN:reauth_required");
    const recent = await session(user);
    expect(await as(user, recent.id).my.decideDeviceLogin({ userCode: started.userCode, approve: true })).toMatchObject(
      { approved: true },
    );
  });
});
