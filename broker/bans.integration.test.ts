// Issue 41, attack 4: removal and bans keep people out (docs/mesh-api.md, "Members", "Bans"). A ban holds
// per person (the account behind a browser member or a device that joined signed in) as well as per key,
// the invite a banned member came through stops admitting anyone, and invites issued by someone who lost
// the right to issue them stop working. Joins go through the real broker's POST /join.
import { randomBytes } from "node:crypto";
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@/server/core/crypto/hash";
import { toBase64Url } from "@/server/core/encoding";
import { previewInvite } from "@/server/services/invites/preview-invite";
import type { SessionUser } from "@/server/api/trpc";
import { addMember, makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { testDb } from "@/test/helpers";
import { as, joinedPeer, meshWithInvite, startBroker, type TestBroker } from "./test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

/** POST /join with a new key (or the given one), optionally with a command-line account token. */
async function join(token: string, opts: { keys?: nacl.SignKeyPair; accountToken?: string; name?: string } = {}) {
  const keys = opts.keys ?? nacl.sign.keyPair();
  const res = await fetch(`${broker.http}/join`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      token,
      peerPubkey: toBase64Url(keys.publicKey),
      displayName: opts.name ?? "peer",
      ...(opts.accountToken ? { accountToken: opts.accountToken } : {}),
    }),
  });
  const body = (await res.json()) as { memberId?: string; error?: { code: string } };
  return { status: res.status, code: body.error?.code ?? "ok", memberId: body.memberId, keys };
}

/** A command-line token of `user` (what `mesh login` stores), written as the device login writes it. */
async function accountTokenOf(user: SessionUser): Promise<string> {
  const token = `mdt_${randomBytes(24).toString("base64url")}`;
  await db.deviceToken.create({
    data: {
      userId: user.id,
      tokenHash: sha256Hex(token),
      name: "laptop",
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  return token;
}

const appCodeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { cause?: { code?: string }; message?: string }) => e.cause?.code ?? e.message,
  );
const previewReason = async (token: string) => {
  const p = await previewInvite(visitorCtx(db), { token });
  return p.valid ? "valid" : p.reason;
};

describe("bans per key and per invite", () => {
  it("refuses a banned anonymous peer's new key through the invite it joined with; those who joined with it stay", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const victim = await joinedPeer(db, invite.token, "victim");
    const friend = await joinedPeer(db, invite.token, "friend");

    const removed = await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: victim.memberId, ban: true });
    expect(removed).toMatchObject({ banned: true });

    // A new key through the same invite: the invite the banned member came through admits no one now.
    expect(await join(invite.token)).toMatchObject({ status: 410, code: "invite_revoked" });
    expect(await previewReason(invite.token)).toBe("revoked");
    // The old key stays refused as banned, whatever the invite.
    const fresh = await as(db, owner).my.createInvite({ meshId: mesh.id });
    expect(await join(fresh.token, { keys: victim.keys })).toMatchObject({ status: 403, code: "peer_banned" });
    // The member who joined with the same invite is still in.
    expect(await db.member.findUniqueOrThrow({ where: { id: friend.memberId } })).toMatchObject({ revokedAt: null });
    expect(await join(fresh.token)).toMatchObject({ status: 200 });
  });
});

describe("bans per person", () => {
  it("a banned device of an account keeps the person out: every key with the account's token, and the browser", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const mallory = await makeUser(db, { name: "Mallory" });
    const token = await accountTokenOf(mallory);
    const device = await join(invite.token, { accountToken: token, name: "mallory-laptop" });
    expect(device.status).toBe(200);
    const web = await as(db, mallory).my.joinMesh({ token: invite.token });

    const removed = await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: device.memberId!, ban: true });
    expect(removed).toMatchObject({ banned: true });
    // The person's other member (the browser one) ended with the ban.
    expect((await db.member.findUniqueOrThrow({ where: { id: web.memberId } })).revokedAt).toBeInstanceOf(Date);

    const fresh = await as(db, owner).my.createInvite({ meshId: mesh.id });
    expect(await join(fresh.token, { accountToken: token })).toMatchObject({ status: 403, code: "banned" });
    expect(await appCodeOf(as(db, mallory).my.joinMesh({ token: fresh.token }))).toBe("banned");
    // Someone else still joins with that invite.
    expect(await join(fresh.token)).toMatchObject({ status: 200 });

    const bans = await as(db, owner).my.meshBans({ meshId: mesh.id });
    expect(bans.items).toEqual([
      expect.objectContaining({
        userId: mallory.id,
        userName: "Mallory",
        peerPubkey: toBase64Url(device.keys.publicKey),
      }),
    ]);
    await as(db, owner).my.unbanUser({ meshId: mesh.id, userId: mallory.id });
    expect(await appCodeOf(as(db, mallory).my.joinMesh({ token: fresh.token }))).toBe("ok");
    expect(await join(fresh.token, { keys: device.keys, accountToken: token })).toMatchObject({ status: 200 });
  });

  it("bans a member joined in the browser: they cannot join again, in the browser or from the command line", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const eve = await makeUser(db, { name: "Eve" });
    const web = await as(db, eve).my.joinMesh({ token: invite.token });

    const removed = await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: web.memberId, ban: true });
    expect(removed).toMatchObject({ banned: true, keyEpoch: 1 });

    const fresh = await as(db, owner).my.createInvite({ meshId: mesh.id });
    expect(await appCodeOf(as(db, eve).my.joinMesh({ token: invite.token }))).toBe("banned");
    expect(await appCodeOf(as(db, eve).my.joinMesh({ token: fresh.token }))).toBe("banned");
    expect(await join(fresh.token, { accountToken: await accountTokenOf(eve) })).toMatchObject({
      status: 403,
      code: "banned",
    });
  });

  it("a ban and a join of the same person at once: the person is never left in the mesh", async () => {
    for (let round = 0; round < 5; round++) {
      const { owner, mesh, invite } = await meshWithInvite(db);
      const spare = await as(db, owner).my.createInvite({ meshId: mesh.id });
      const eve = await makeUser(db, { name: "Eve" });
      const token = await accountTokenOf(eve);
      const web = await as(db, eve).my.joinMesh({ token: invite.token });
      await Promise.all([
        as(db, owner).my.removeMember({ meshId: mesh.id, memberId: web.memberId, ban: true }),
        appCodeOf(as(db, eve).my.joinMesh({ token: spare.token })),
        join(spare.token, { accountToken: token }),
      ]);
      expect(await db.member.count({ where: { meshId: mesh.id, userId: eve.id, revokedAt: null } })).toBe(0);
    }
  });

  it("removal without a ban lets a browser member back with an invite they hold (what the dialog says)", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const eve = await makeUser(db, { name: "Eve" });
    const web = await as(db, eve).my.joinMesh({ token: invite.token });
    await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: web.memberId });
    expect(await appCodeOf(as(db, eve).my.joinMesh({ token: invite.token }))).toBe("ok");
  });
});

describe("invites of someone who lost the right to issue them", () => {
  async function meshWithAdmin() {
    const { owner, mesh } = await meshWithInvite(db);
    const admin = await makeUser(db, { name: "Admin" });
    const member = await addMember(db, mesh.id, admin, { role: "admin" });
    const issued = await as(db, admin).my.createInvite({ meshId: mesh.id });
    return { owner, mesh, admin, member, issued };
  }

  it("a removed mesh admin's earlier invite admits no one, and its preview says revoked", async () => {
    const { owner, mesh, member, issued } = await meshWithAdmin();
    expect(await previewReason(issued.token)).toBe("valid");
    await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: member.id, revokeInvites: false });
    expect(await join(issued.token)).toMatchObject({ status: 410, code: "invite_revoked" });
    expect(await previewReason(issued.token)).toBe("revoked");
  });

  it("a mesh admin demoted to member: their invites stop working", async () => {
    const { owner, mesh, member, issued } = await meshWithAdmin();
    await as(db, owner).my.changeMemberRole({ meshId: mesh.id, memberId: member.id, role: "member" });
    expect(await join(issued.token)).toMatchObject({ status: 410, code: "invite_revoked" });
    const someone = await makeUser(db);
    expect(await appCodeOf(as(db, someone).my.joinMesh({ token: issued.token }))).toBe("invite_revoked");
  });

  it("removal with revokeInvites revokes every invite the person issued and says how many", async () => {
    const { owner, mesh, admin, member, issued } = await meshWithAdmin();
    const second = await as(db, admin).my.createInvite({ meshId: mesh.id, role: "observer" });
    const removed = await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: member.id, revokeInvites: true });
    expect(removed).toMatchObject({ invitesRevoked: 2 });
    for (const id of [issued.inviteId, second.inviteId])
      expect((await db.invite.findUniqueOrThrow({ where: { id } })).revokedAt).toBeInstanceOf(Date);
  });
});
