// Issue 21, point 8: deleting an account removes what it owns, leaves other people's meshes as a
// departure would, keeps their history without the user, and touches nobody else's data.
import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { findSessionUser, openSession } from "@/server/auth/sessions";
import { authenticate } from "@/server/services/users/authenticate";
import { addMember, makeMesh, makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { DELETED_MEMBER_NAME } from "./delete-account";
import { trpcOutcome } from "@/test/rejection";

const db = testDb();
afterAll(() => db.$disconnect());
const as = (user: SessionUser) => createCaller(createContext({ user, db }));

const codeOf = (p: Promise<unknown>) => trpcOutcome(p);

const envelope = (meshId: string, senderMemberId: string) =>
  db.messageEnvelope.create({
    data: {
      meshId,
      senderMemberId,
      targetSpec: { kind: "mesh" },
      byteSize: 3,
      ciphertext: Buffer.from("abc"),
      expiresAt: new Date(Date.now() + 60_000),
    },
  });

/** A user with a mesh of their own (another person in it, a message, an invite) and a membership in someone else's mesh. */
async function world() {
  const [user, friend, host] = [
    await makeUser(db, { name: "Doomed" }),
    await makeUser(db, { name: "Friend" }),
    await makeUser(db, { name: "Host" }),
  ];
  const own = await makeMesh(db, user, "Own mesh");
  const friendInOwn = await addMember(db, own.id, friend);
  await envelope(own.id, friendInOwn.id);
  await as(user).my.createInvite({ meshId: own.id });

  const hosted = await makeMesh(db, host, "Hosted mesh");
  const membership = await addMember(db, hosted.id, user, { role: "admin" });
  const device = await db.member.create({
    data: { meshId: hosted.id, userId: user.id, displayName: "Doomed laptop", peerPubkey: uid("pk"), role: "member" },
  });
  await db.auditEvent.create({
    data: {
      meshId: hosted.id,
      eventType: "member_joined",
      actorUserId: user.id,
      actorMemberId: membership.id,
      metadata: { displayName: "Doomed" },
    },
  });
  await db.auditEvent.create({
    data: {
      meshId: hosted.id,
      eventType: "role_changed",
      actorUserId: host.id,
      metadata: { memberId: membership.id, displayName: "Doomed", to: "admin" },
    },
  });
  const friendInHosted = await addMember(db, hosted.id, friend);
  const sent = await envelope(hosted.id, membership.id);
  const issued = await as(user).my.createInvite({ meshId: hosted.id });
  const hostInvite = await as(host).my.createInvite({ meshId: hosted.id });

  const sessions = [await openSession(db, user.id), await openSession(db, user.id)];
  const friendSession = await openSession(db, friend.id);
  await db.deviceToken.create({
    data: { userId: user.id, tokenHash: uid("th"), name: "laptop", expiresAt: new Date(Date.now() + 60_000) },
  });
  const apiKey = await db.apiKey.create({
    data: { name: "ci", prefix: uid("pfx"), keyHash: uid("kh"), scopes: ["jobs_read"], createdByUserId: user.id },
  });
  return {
    user,
    friend,
    host,
    own,
    hosted,
    membership,
    device,
    friendInHosted,
    sent,
    issued,
    hostInvite,
    sessions,
    friendSession,
    apiKey,
  };
}

describe("my.deleteAccount", () => {
  it("states what it would remove and keep, counted", async () => {
    const w = await world();
    expect(await as(w.user).my.account()).toEqual({
      email: w.user.email,
      hasPassword: true,
      providers: [],
      deletion: {
        allowed: true,
        removes: {
          meshesOwned: 1,
          otherMembers: 1,
          messages: 1,
          meshesJoined: 1,
          invites: 2,
          sessions: 2,
          cliLogins: 1,
        },
        keeps: { apiKeys: 1 },
      },
    });
  });

  it("wants the account's own e-mail address typed, and refuses administrators, removing nothing", async () => {
    const w = await world();
    expect(await codeOf(as(w.user).my.deleteAccount({ confirmEmail: w.friend.email }))).toBe(
      "BAD_REQUEST:confirmation_mismatch",
    );
    expect(await codeOf(as(w.user).my.deleteAccount({ confirmEmail: "" }))).toMatch(/^BAD_REQUEST:/);
    expect(await codeOf(as({ ...w.user, isAdmin: true }).my.deleteAccount({ confirmEmail: w.user.email }))).toBe(
      "CONFLICT:admin_account",
    );
    expect(await as({ ...w.user, isAdmin: true }).my.account()).toMatchObject({ deletion: { allowed: false } });
    expect(await db.user.count({ where: { id: w.user.id } })).toBe(1);
    expect(await db.mesh.count({ where: { id: w.own.id } })).toBe(1);
    expect(await db.member.findUniqueOrThrow({ where: { id: w.membership.id } })).toMatchObject({
      revokedAt: null,
      displayName: "Doomed",
    });
  });

  it("removes the account and what it owns in one go, and leaves everyone else's data as it was", async () => {
    const w = await world();
    const friendBefore = await db.user.findUniqueOrThrow({ where: { id: w.friend.id } });
    const result = await as(w.user).my.deleteAccount({ confirmEmail: `  ${w.user.email.toUpperCase()} ` });
    expect(result).toEqual({ deleted: true, meshesDeleted: 1, meshesLeft: 1, invitesDeleted: 1 });

    // Gone: the user, the sessions, the command-line login, the own mesh with its members, messages, invites and audit log.
    expect(await db.user.count({ where: { id: w.user.id } })).toBe(0);
    for (const s of w.sessions) expect(await findSessionUser(db, s)).toBeNull();
    expect(await db.deviceToken.count({ where: { userId: w.user.id } })).toBe(0);
    expect(await db.mesh.count({ where: { id: w.own.id } })).toBe(0);
    for (const table of [db.member, db.invite, db.messageEnvelope, db.auditEvent] as const) {
      expect(await (table as typeof db.member).count({ where: { meshId: w.own.id } })).toBe(0);
    }
    expect(await authenticate(visitorCtx(db), { email: w.user.email, password: "a-long-password" })).toBeNull();

    // The hosted mesh: the user left it (both members revoked, renamed, no longer linked), their invite went, history stays unnamed.
    for (const id of [w.membership.id, w.device.id]) {
      const m = await db.member.findUniqueOrThrow({ where: { id } });
      expect(m).toMatchObject({ userId: null, displayName: DELETED_MEMBER_NAME });
      expect(m.revokedAt).not.toBeNull();
    }
    expect((await db.mesh.findUniqueOrThrow({ where: { id: w.hosted.id } })).keyEpoch).toBe(1);
    expect(await db.invite.count({ where: { id: w.issued.inviteId } })).toBe(0);
    const audit = await db.auditEvent.findMany({ where: { meshId: w.hosted.id }, orderBy: { id: "asc" } });
    const text = JSON.stringify(audit, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v));
    expect(text).not.toContain("Doomed");
    expect(text).not.toContain(w.user.id);
    expect(audit.filter((e) => e.eventType === "member_left").map((e) => e.metadata)).toEqual([
      { reason: "account_deleted", device: false },
      { reason: "account_deleted", device: true },
    ]);
    expect(await db.messageEnvelope.count({ where: { id: w.sent.id } })).toBe(1);
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: w.apiKey.id } })).toMatchObject({
      createdByUserId: null,
      revokedAt: null,
    });

    // Everyone else: untouched.
    expect(await db.user.findUniqueOrThrow({ where: { id: w.friend.id } })).toEqual(friendBefore);
    expect(await findSessionUser(db, w.friendSession)).toMatchObject({ id: w.friend.id });
    expect(await db.mesh.findUniqueOrThrow({ where: { id: w.hosted.id } })).toMatchObject({
      ownerUserId: w.host.id,
      archivedAt: null,
    });
    expect(await db.member.findUniqueOrThrow({ where: { id: w.friendInHosted.id } })).toMatchObject({
      userId: w.friend.id,
      displayName: "Friend",
      revokedAt: null,
    });
    expect(await db.invite.count({ where: { id: w.hostInvite.inviteId } })).toBe(1);
    expect(await as(w.host).my.mesh({ meshId: w.hosted.id })).toMatchObject({ mesh: { id: w.hosted.id } });
  });
});
