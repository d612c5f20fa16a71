// Issue 17, point 4: an owner (or a mesh admin) removes, bans and changes the role of a member, and
// every broker node acts on it at once (docs/mesh-api.md, "Members"; docs/protocol.md, "Close codes").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64Url } from "@/server/core/encoding";
import { makeUser } from "@/test/mesh-fixtures";
import { testDb } from "@/test/helpers";
import { signHookAuth, WS_AUTH_HEADER } from "./protocol/ws-auth";
import {
  as,
  closed,
  connect,
  eventually,
  fakeCiphertext,
  joinedPeer,
  meshWithInvite,
  startBroker,
  TestClient,
  type TestBroker,
  type TestPeer,
} from "./test-support";

const db = testDb();
let one: TestBroker;
let two: TestBroker;
beforeAll(async () => {
  // Long member-cache and sweep times: what happens within the test comes from the notifications.
  const env = { MEMBER_CACHE_TTL_MS: "600000", MEMBERSHIP_SWEEP_MS: "600000", JOIN_RATE_PER_MINUTE: "1000" };
  [one, two] = await Promise.all([startBroker(db, env), startBroker(db, env)]);
});
afterAll(async () => {
  await Promise.all([one.close(), two.close()]);
  await db.$disconnect();
});

const queuedFor = (memberId: string) => db.messageRecipient.count({ where: { memberId } });
const pubkeyOf = (peer: TestPeer) => toBase64Url(peer.keys.publicKey);

function hook(broker: TestBroker, peer: TestPeer) {
  const body = JSON.stringify({ meshId: peer.meshId, memberId: peer.memberId, pid: 1, cwd: "/w", status: "working" });
  const auth = signHookAuth({ meshId: peer.meshId, memberId: peer.memberId, secretKey: peer.keys.secretKey, body });
  return fetch(`${broker.http}/hook/set-status`, {
    method: "POST",
    headers: { "content-type": "application/json", [WS_AUTH_HEADER]: auth },
    body,
  });
}

describe("member removal", () => {
  it("closes the member's sockets on every node within 2 s (4403 removed), refuses it after, drops its queue and raises the key epoch", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const [victim, b, c] = [
      await joinedPeer(db, invite.token, "victim"),
      await joinedPeer(db, invite.token, "b"),
      await joinedPeer(db, invite.token, "c"),
    ];
    const sender = await TestClient.open(one, b);
    for (let i = 0; i < 3; i++)
      expect((await sender.send({ kind: "peer", memberId: victim.memberId }, fakeCiphertext())).type).toBe("sent");
    expect(await queuedFor(victim.memberId)).toBe(3);
    const onOne = await TestClient.open(one, victim);
    const onTwo = await TestClient.open(two, victim);
    const watcher = await TestClient.open(two, c);
    expect(watcher.frames.find((f) => f.type === "welcome")).toMatchObject({ keyEpoch: 0 });

    const ends = [closed(onOne.ws), closed(onTwo.ws)];
    const started = Date.now();
    const removed = await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: victim.memberId });
    const results = await Promise.all(ends);
    const elapsed = Date.now() - started;
    expect(results).toEqual([
      { code: 4403, reason: "removed" },
      { code: 4403, reason: "removed" },
    ]);
    expect(elapsed).toBeLessThan(2_000);
    expect(removed).toMatchObject({ memberId: victim.memberId, banned: false, droppedMessages: 3, keyEpoch: 1 });
    expect(await queuedFor(victim.memberId)).toBe(0);

    // Refused after: connection, hook; the remaining peers hear of the new key epoch.
    expect(await connect(one, victim)).toMatchObject({ ok: false, status: 401 });
    expect((await hook(two, victim)).status).toBe(401);
    expect(await watcher.next((f) => f.type === "key_epoch")).toMatchObject({ epoch: 1 });
    await eventually(
      async () => (await db.presence.count({ where: { memberId: victim.memberId, disconnectedAt: null } })) === 0,
    );

    // A whole-mesh message must now name epoch 1; it goes to the remaining member only.
    expect(await sender.send({ kind: "mesh" }, fakeCiphertext())).toMatchObject({ type: "error", code: "CONFLICT" });
    expect(sender.frames.find((f) => f.type === "key_epoch")).toMatchObject({ epoch: 1 });
    expect(await sender.send({ kind: "mesh", epoch: 1 }, fakeCiphertext())).toMatchObject({
      type: "sent",
      recipients: 1,
    });
    expect((await watcher.waitMessages(1))[0]).toMatchObject({ from: b.memberId, to: { kind: "mesh", epoch: 1 } });
    expect(await sender.send({ kind: "peer", memberId: victim.memberId }, fakeCiphertext())).toMatchObject({
      type: "error",
      code: "NOT_FOUND",
    });

    const audit = await db.auditEvent.findFirstOrThrow({ where: { meshId: mesh.id, eventType: "member_removed" } });
    expect(audit).toMatchObject({
      actorUserId: owner.id,
      metadata: { memberId: victim.memberId, displayName: "victim", droppedMessages: 3, keyEpoch: 1 },
    });
    // Not banned: an invite lets it join again (a new membership, a new epoch for nobody).
    expect(
      (
        await fetch(`${one.http}/join`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token: invite.token, peerPubkey: pubkeyOf(victim), displayName: "back" }),
        })
      ).status,
    ).toBe(200);
    await Promise.all([sender.close(), watcher.close()]);
  });

  it("bans a peer key from every invite until the ban is lifted", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const victim = await joinedPeer(db, invite.token, "victim");
    const fresh = await as(db, owner).my.createInvite({ meshId: mesh.id });
    const join = (token: string) =>
      fetch(`${one.http}/join`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, peerPubkey: pubkeyOf(victim), displayName: "again" }),
      });

    expect(
      await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: victim.memberId, ban: true }),
    ).toMatchObject({ banned: true, keyEpoch: 1 });
    for (const token of [invite.token, fresh.token]) {
      const refused = await join(token);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: { code: "peer_banned", message: expect.any(String) } });
    }
    expect(await as(db, owner).my.meshBans({ meshId: mesh.id })).toEqual({
      items: [
        {
          id: expect.any(String),
          peerPubkey: pubkeyOf(victim),
          userId: null,
          userName: null,
          displayName: "victim",
          bannedAt: expect.any(Date),
          bannedByName: owner.name,
        },
      ],
    });
    // Banning a member who is already out adds nothing and changes no epoch.
    expect(
      await as(db, owner).my.removeMember({ meshId: mesh.id, memberId: victim.memberId, ban: true }),
    ).toMatchObject({ banned: true, keyEpoch: null, droppedMessages: 0 });

    await as(db, owner).my.unbanPeer({ meshId: mesh.id, peerPubkey: pubkeyOf(victim) });
    expect((await join(fresh.token)).status).toBe(200);
    const types = (
      await db.auditEvent.findMany({ where: { meshId: mesh.id }, orderBy: { id: "asc" }, select: { eventType: true } })
    ).map((e) => e.eventType);
    expect(types.filter((t) => t !== "invite_created")).toEqual([
      "mesh_created",
      "member_joined",
      "member_removed",
      "member_banned",
      // The invite the banned peer joined with admits no one now (members-bans.ts).
      "invite_revoked",
      "member_unbanned",
      "member_joined",
    ]);
    await expect(as(db, owner).my.unbanPeer({ meshId: mesh.id, peerPubkey: pubkeyOf(victim) })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "ban_not_found",
    });
  });

  it("closes every connection of an archived mesh on every node with 4410 mesh_archived", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const [a, b] = [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
    const clients = [await TestClient.open(one, a), await TestClient.open(two, b)];
    const ends = clients.map((c) => closed(c.ws));
    const started = Date.now();
    await as(db, owner).my.archiveMesh({ meshId: mesh.id });
    expect(await Promise.all(ends)).toEqual([
      { code: 4410, reason: "mesh_archived" },
      { code: 4410, reason: "mesh_archived" },
    ]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await connect(two, a)).toMatchObject({ ok: false, status: 401 });
  });

  it("a node that missed the notification closes the connection at its next membership sweep", async () => {
    const sweeping = await startBroker(db, { MEMBER_CACHE_TTL_MS: "600000", MEMBERSHIP_SWEEP_MS: "200" });
    try {
      const { invite } = await meshWithInvite(db);
      const a = await joinedPeer(db, invite.token, "a");
      const client = await TestClient.open(sweeping, a);
      const end = closed(client.ws);
      // Revoked behind the broker's back: no NOTIFY, as if the node had been cut off at the time.
      await db.member.update({ where: { id: a.memberId }, data: { revokedAt: new Date() } });
      expect(await end).toEqual({ code: 4403, reason: "removed" });
    } finally {
      await sweeping.close();
    }
  });
});

describe("roles", () => {
  it("a role change applies to open connections on every node at once (an observer stops sending)", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const [a, b] = [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
    const ca = await TestClient.open(two, a);
    expect((await ca.send({ kind: "peer", memberId: b.memberId }, fakeCiphertext())).type).toBe("sent");
    await as(db, owner).my.changeMemberRole({ meshId: mesh.id, memberId: a.memberId, role: "observer" });
    await eventually(
      async () => (await ca.send({ kind: "peer", memberId: b.memberId }, fakeCiphertext())).type === "error",
      2_000,
    );
    expect(await ca.send({ kind: "peer", memberId: b.memberId }, fakeCiphertext())).toMatchObject({
      type: "error",
      code: "FORBIDDEN",
      message: "forbidden_role",
    });
    await as(db, owner).my.changeMemberRole({ meshId: mesh.id, memberId: a.memberId, role: "member" });
    await eventually(
      async () => (await ca.send({ kind: "peer", memberId: b.memberId }, fakeCiphertext())).type === "sent",
      2_000,
    );
    const changes = await db.auditEvent.findMany({
      where: { meshId: mesh.id, eventType: "role_changed" },
      orderBy: { id: "asc" },
    });
    expect(changes.map((e) => e.metadata)).toEqual([
      { memberId: a.memberId, displayName: "a", from: "member", to: "observer" },
      { memberId: a.memberId, displayName: "a", from: "observer", to: "member" },
    ]);
    await ca.close();
  });

  it("keeps each manager to its powers: the owner manages all but itself, a mesh admin members and observers only", async () => {
    const { owner, mesh, invite } = await meshWithInvite(db);
    const [adminUser, memberUser, stranger] = [await makeUser(db), await makeUser(db), await makeUser(db)];
    const admin = await db.member.create({
      data: { meshId: mesh.id, userId: adminUser.id, displayName: "adm", role: "admin" },
    });
    const plain = await db.member.create({
      data: { meshId: mesh.id, userId: memberUser.id, displayName: "mem", role: "member" },
    });
    const peer = await joinedPeer(db, invite.token, "peer");
    const ownMember = await db.member.findFirstOrThrow({ where: { meshId: mesh.id, userId: owner.id } });
    const code = (p: Promise<unknown>) =>
      p.then(
        () => "ok",
        (e: { code: string; message: string }) => `${e.code}:${e.message}`,
      );

    expect(await code(as(db, stranger).my.removeMember({ meshId: mesh.id, memberId: peer.memberId }))).toBe(
      "NOT_FOUND:mesh_not_found",
    );
    expect(await code(as(db, memberUser).my.removeMember({ meshId: mesh.id, memberId: peer.memberId }))).toBe(
      "FORBIDDEN:owner_or_admin_only",
    );
    expect(await code(as(db, owner).my.removeMember({ meshId: mesh.id, memberId: ownMember.id }))).toBe(
      "FORBIDDEN:owner_not_manageable",
    );
    expect(
      await code(as(db, adminUser).my.changeMemberRole({ meshId: mesh.id, memberId: plain.id, role: "admin" })),
    ).toBe("FORBIDDEN:admin_manages_members_only");
    expect(await code(as(db, adminUser).my.removeMember({ meshId: mesh.id, memberId: admin.id }))).toBe(
      "FORBIDDEN:admin_manages_members_only",
    );
    expect(
      await code(as(db, owner).my.removeMember({ meshId: mesh.id, memberId: "00000000-0000-7000-8000-000000000000" })),
    ).toBe("NOT_FOUND:member_not_found");
    expect(
      await code(as(db, adminUser).my.changeMemberRole({ meshId: mesh.id, memberId: peer.memberId, role: "observer" })),
    ).toBe("ok");
    expect(await code(as(db, adminUser).my.removeMember({ meshId: mesh.id, memberId: plain.id }))).toBe("ok");
    expect(await code(as(db, owner).my.changeMemberRole({ meshId: mesh.id, memberId: admin.id, role: "member" }))).toBe(
      "ok",
    );
    // The member who was removed sees the mesh no more.
    expect(await code(as(db, memberUser).my.mesh({ meshId: mesh.id }))).toBe("NOT_FOUND:mesh_not_found");
  });
});
