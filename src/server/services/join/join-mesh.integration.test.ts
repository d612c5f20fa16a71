import nacl from "tweetnacl";
import { afterAll, describe, expect, it } from "vitest";
import { toBase64Url } from "@/server/core/encoding";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb } from "@/test/helpers";
import { joinMesh } from "./join-mesh";

const db = testDb();
afterAll(() => db.$disconnect());
const as = (user: SessionUser) => createCaller(createContext({ user, db }));
const peerKey = () => toBase64Url(nacl.sign.keyPair().publicKey);

describe("joinMesh", () => {
  it("adds the peer with its public key only, counts one use and writes member_joined", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, role: "observer", maxUses: 3 });
    const pubkey = peerKey();
    const joined = await joinMesh(db, { token: invite.token, peerPubkey: pubkey, displayName: "Laptop" });
    expect(joined).toMatchObject({ ok: true, meshId: mesh.id, role: "observer", rejoined: false });
    const again = await joinMesh(db, { token: invite.token, peerPubkey: pubkey, displayName: "Laptop" });
    expect(again).toMatchObject({ ok: true, rejoined: true });
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(1);
    const member = await db.member.findFirstOrThrow({ where: { meshId: mesh.id, peerPubkey: pubkey } });
    expect(member).toMatchObject({ displayName: "Laptop", role: "observer", userId: null, revokedAt: null });
    expect(await db.auditEvent.count({ where: { meshId: mesh.id, eventType: "member_joined" } })).toBe(1);
  });

  it("holds the use cap under a race: 50 concurrent joins on a cap of 5 make exactly 5 members", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, maxUses: 5 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => joinMesh(db, { token: invite.token, peerPubkey: peerKey(), displayName: `peer ${i}` })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "invite_exhausted")).toBe(true);
    expect(await db.member.count({ where: { meshId: mesh.id, peerPubkey: { not: null } } })).toBe(5);
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(5);
  });

  it("refuses with its own reason code for each failure", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const make = async (opts: object = {}) => (await as(owner).my.createInvite({ meshId: mesh.id, ...opts })).token;
    const expired = await make();
    await db.invite.updateMany({ where: { token: expired }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const revoked = await as(owner).my.createInvite({ meshId: mesh.id });
    await as(owner).my.revokeInvite({ inviteId: revoked.inviteId });
    const exhausted = await make({ maxUses: 1 });
    await joinMesh(db, { token: exhausted, peerPubkey: peerKey(), displayName: "first" });
    const gone = await make();
    await db.invite.deleteMany({ where: { token: gone } });
    const archivedMesh = await makeMesh(db, owner);
    const onArchived = (await as(owner).my.createInvite({ meshId: archivedMesh.id })).token;
    await as(owner).my.archiveMesh({ meshId: archivedMesh.id });
    const json = JSON.parse(Buffer.from(revoked.token, "base64url").toString()) as Record<string, string>;
    json.mesh_slug = `${json.mesh_slug}x`;
    const tampered = Buffer.from(JSON.stringify(json)).toString("base64url");

    const cases: [string, string][] = [
      ["%%%", "invite_malformed"],
      [tampered, "invite_bad_signature"],
      [gone, "invite_not_found"],
      [expired, "invite_expired"],
      [revoked.token, "invite_revoked"],
      [exhausted, "invite_exhausted"],
      [onArchived, "mesh_archived"],
    ];
    for (const [token, reason] of cases) {
      expect(await joinMesh(db, { token, peerPubkey: peerKey(), displayName: "x" }), reason).toEqual({ ok: false, reason });
    }
  });
});
