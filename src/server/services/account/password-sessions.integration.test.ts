// Issue 21, point 8: changing the password (the current one required, guesses limited like sign-in,
// other sessions signed out) and the session list (a user only ever sees and signs out their own).
import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { signInLimiter } from "@/server/auth/attempt-limit";
import { findSessionUser, openSession } from "@/server/auth/sessions";
import { CLIENT_ADDRESS_HEADER } from "@/server/core/client-address";
import { sha256Hex } from "@/server/core/crypto/hash";
import { authenticate } from "@/server/services/users/authenticate";
import { makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { trpcOutcome } from "@/test/rejection";

const db = testDb();
afterAll(() => db.$disconnect());

/** A caller signed in on `sessionId`, from its own client address (limits are per address too). */
const as = (user: SessionUser, sessionId?: string) =>
  createCaller(
    createContext({
      user: { ...user, ...(sessionId ? { sessionId } : {}) },
      db,
      headers: new Headers({ [CLIENT_ADDRESS_HEADER]: `198.51.100.${Math.floor(Math.random() * 250)}` }),
    }),
  );

/** Opens a session as a sign-in does; returns its secret and its row's id. */
async function session(user: SessionUser, userAgent = "vitest") {
  const secret = await openSession(db, user.id, { userAgent, ipAddress: "203.0.113.9" });
  const found = await findSessionUser(db, secret);
  if (!found) throw new Error("session not opened");
  return { secret, id: found.sessionId };
}

const codeOf = (p: Promise<unknown>) => trpcOutcome(p);

const change = (currentPassword: string, newPassword = "a-brand-new-password") => ({
  currentPassword,
  newPassword,
  confirmPassword: newPassword,
});

describe("my.changePassword", () => {
  it("refuses a wrong current password and changes nothing; with the right one, changes it and signs out the other sessions only", async () => {
    const user = await makeUser(db);
    const here = await session(user, "here");
    const there = await session(user, "there");
    const other = await makeUser(db);
    const elsewhere = await session(other);

    expect(await codeOf(as(user, here.id).my.changePassword(change("not-the-password")))).toBe(
      "BAD_REQUEST:current_password_wrong",
    );
    expect(await authenticate(visitorCtx(db), { email: user.email, password: "a-long-password" })).toMatchObject({
      id: user.id,
    });
    expect(await findSessionUser(db, there.secret)).not.toBeNull();

    expect(await as(user, here.id).my.changePassword(change("a-long-password"))).toEqual({
      changed: true,
      signedOutSessions: 1,
    });
    expect(await findSessionUser(db, here.secret)).toMatchObject({ id: user.id, sessionId: here.id });
    expect(await findSessionUser(db, there.secret)).toBeNull();
    expect(await findSessionUser(db, elsewhere.secret)).toMatchObject({ id: other.id });
    expect(await authenticate(visitorCtx(db), { email: user.email, password: "a-long-password" })).toBeNull();
    expect(await authenticate(visitorCtx(db), { email: user.email, password: "a-brand-new-password" })).toMatchObject({
      id: user.id,
    });
  });

  it("holds the new password to sign-up's rules and wants it twice alike", async () => {
    const user = await makeUser(db);
    expect(await codeOf(as(user).my.changePassword(change("a-long-password", "short")))).toMatch(/^BAD_REQUEST:/);
    expect(
      await codeOf(
        as(user).my.changePassword({
          currentPassword: "a-long-password",
          newPassword: "a-brand-new-password",
          confirmPassword: "another-password",
        }),
      ),
    ).toMatch(/^BAD_REQUEST:/);
    expect(await codeOf(as(user).my.changePassword(change("a-long-password", "a-long-password")))).toMatch(
      /^BAD_REQUEST:/,
    );
    expect(await codeOf(as(user).my.changePassword(change("x".repeat(201))))).toMatch(/^BAD_REQUEST:/);
    expect(await authenticate(visitorCtx(db), { email: user.email, password: "a-long-password" })).toMatchObject({
      id: user.id,
    });
  });

  it("limits guesses at the current password like sign-in attempts, in the same per-address buckets", async () => {
    const user = await makeUser(db);
    const limit = Number(process.env.SIGNIN_RATE_PER_MINUTE ?? 10);
    for (let i = 0; i < limit; i++)
      expect(await codeOf(as(user).my.changePassword(change(`guess-${i}`)))).toBe("BAD_REQUEST:current_password_wrong");
    // Past the limit, even the right password is not checked, and sign-in with the address is limited too.
    expect(await codeOf(as(user).my.changePassword(change("a-long-password")))).toBe("TOO_MANY_REQUESTS:rate_limited");
    expect(await signInLimiter().attempt(user.email, "192.0.2.1")).toBe(false);
    expect(await authenticate(visitorCtx(db), { email: user.email, password: "a-long-password" })).toMatchObject({
      id: user.id,
    });
  });

  it("tells an account without a password (OAuth only) that it has none", async () => {
    const row = await db.user.create({ data: { email: `${uid("oauth")}@example.test`, name: "OAuth" } });
    const user: SessionUser = { id: row.id, email: row.email ?? "", name: row.name, isAdmin: false };
    expect(await codeOf(as(user).my.changePassword(change("anything-at-all")))).toBe("CONFLICT:no_password");
    expect(await as(user).my.account()).toMatchObject({ hasPassword: false, providers: [] });
  });
});

describe("my.sessions", () => {
  it("lists only the user's own live sessions, marks the current one, and never shows a secret or its hash", async () => {
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const here = await session(a, "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0");
    const phone = await session(a, "Mozilla/5.0 (iPhone) Mobile Safari");
    const expired = await session(a);
    await db.session.update({ where: { id: expired.id }, data: { expires: new Date(Date.now() - 1000) } });
    const theirs = await session(b);

    const list = await as(a, here.id).my.sessions();
    expect(list.items.map((s) => s.id).sort()).toEqual([here.id, phone.id].sort());
    expect(list.items.find((s) => s.id === here.id)).toMatchObject({
      current: true,
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0",
      ipAddress: "203.0.113.9",
    });
    expect(list.items.find((s) => s.id === phone.id)?.current).toBe(false);
    const text = JSON.stringify(list);
    for (const s of [here, phone]) {
      expect(text).not.toContain(s.secret);
      expect(text).not.toContain(sha256Hex(s.secret));
    }
    expect(text).not.toContain(theirs.id);
  });

  it("lets a user sign out their own session, never another user's (answered as a session that does not exist)", async () => {
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const mine = await session(a);
    const theirs = await session(b);
    expect(await codeOf(as(a).my.revokeSession({ sessionId: theirs.id }))).toBe("NOT_FOUND:session_not_found");
    expect(await codeOf(as(a).my.revokeSession({ sessionId: "no-such-session" }))).toBe("NOT_FOUND:session_not_found");
    expect(await findSessionUser(db, theirs.secret)).toMatchObject({ id: b.id });
    expect(await codeOf(as(a).my.revokeSession({ sessionId: "bad id; drop" }))).toMatch(/^BAD_REQUEST:/);

    expect(await as(a).my.revokeSession({ sessionId: mine.id })).toEqual({ sessionId: mine.id, signedOut: true });
    expect(await findSessionUser(db, mine.secret)).toBeNull();
  });

  it("signs out every other session of the user and keeps the current one and other users' sessions", async () => {
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const here = await session(a);
    const [one, two] = [await session(a), await session(a)];
    const theirs = await session(b);
    expect(await as(a, here.id).my.revokeOtherSessions()).toEqual({ signedOut: 2 });
    expect(await findSessionUser(db, here.secret)).not.toBeNull();
    expect(await findSessionUser(db, one.secret)).toBeNull();
    expect(await findSessionUser(db, two.secret)).toBeNull();
    expect(await findSessionUser(db, theirs.secret)).toMatchObject({ id: b.id });
    expect((await as(a, here.id).my.sessions()).items.map((s) => s.id)).toEqual([here.id]);
  });

  it("marks a session as seen at most every few minutes", async () => {
    const user = await makeUser(db);
    const s = await session(user);
    const old = new Date(Date.now() - 10 * 60_000);
    await db.session.update({ where: { id: s.id }, data: { lastSeenAt: old } });
    await findSessionUser(db, s.secret);
    const seen = (await db.session.findUniqueOrThrow({ where: { id: s.id } })).lastSeenAt;
    expect(seen.getTime()).toBeGreaterThan(old.getTime());
    await findSessionUser(db, s.secret);
    expect((await db.session.findUniqueOrThrow({ where: { id: s.id } })).lastSeenAt).toEqual(seen);
  });
});
