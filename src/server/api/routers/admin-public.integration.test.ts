import { afterAll, describe, expect, it } from "vitest";
import { makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { createCaller } from "../root";
import { createContext, type SessionUser } from "../trpc";

const db = testDb();
afterAll(() => db.$disconnect());
const as = (user: SessionUser | null) => createCaller(createContext({ user, db }));

describe("admin", () => {
  it("lists meshes with owner and member count, searches, filters and sorts", async () => {
    const [admin, owner] = [await makeUser(db, { admin: true }), await makeUser(db, { name: "Olive" })];
    const tag = uid("zeta").toLowerCase();
    const a = await makeMesh(db, owner, `${tag} alpha`);
    const b = await makeMesh(db, owner, `${tag} beta`);
    await as(owner).my.archiveMesh({ meshId: b.id });
    const page = await as(admin).admin.meshes({ q: tag, sort: "name", dir: "asc" });
    expect(page.items.map((m) => m.id)).toEqual([a.id, b.id]);
    expect(page.items[0]).toMatchObject({ owner: { name: "Olive" }, memberCount: 1 });
    expect((await as(admin).admin.meshes({ q: tag, archived: "yes" })).items.map((m) => m.id)).toEqual([b.id]);
    expect(
      (await as(admin).admin.meshes({ q: tag, sort: "name", dir: "desc", pageSize: 1, page: 2 })).items.map(
        (m) => m.id,
      ),
    ).toEqual([a.id]);
    await expect(as(admin).admin.meshes({ pageSize: 101 })).rejects.toThrow();
  });

  it("answers mesh: null in the same shape for an absent mesh", async () => {
    const admin = await makeUser(db, { admin: true });
    expect(await as(admin).admin.mesh({ meshId: "018f0000-0000-7000-8000-000000000001" })).toEqual({
      mesh: null,
      members: [],
      presences: [],
      invites: [],
      auditEvents: [],
    });
  });

  it("counts message_sent events of the last 24 hours in the summary", async () => {
    const [admin, owner] = [await makeUser(db, { admin: true }), await makeUser(db)];
    const mesh = await makeMesh(db, owner);
    const before = await as(admin).admin.summary();
    await db.auditEvent.createMany({
      data: [
        { meshId: mesh.id, eventType: "message_sent" },
        { meshId: mesh.id, eventType: "message_sent" },
        { meshId: mesh.id, eventType: "message_sent", createdAt: new Date(Date.now() - 25 * 3_600_000) },
        { meshId: mesh.id, eventType: "member_joined" },
      ],
    });
    const after = await as(admin).admin.summary();
    expect(after.messages24h - before.messages24h).toBe(2);
    expect(Object.keys(after).sort()).toEqual([
      "activeMeshes",
      "activePresences",
      "meshes",
      "messages24h",
      "totalPresences",
    ]);
  });

  it("filters invites, sessions and audit", async () => {
    const [admin, owner] = [await makeUser(db, { admin: true }), await makeUser(db)];
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id });
    await as(owner).my.revokeInvite({ inviteId: invite.inviteId });
    const revoked = await as(admin).admin.invites({ q: mesh.slug, revoked: "yes" });
    expect(revoked.items.map((i) => i.id)).toEqual([invite.inviteId]);
    expect(revoked.items[0]).toMatchObject({ state: "revoked", mesh: { id: mesh.id }, createdBy: { id: owner.id } });
    expect((await as(admin).admin.invites({ q: mesh.slug, revoked: "no" })).total).toBe(0);
    const audit = await as(admin).admin.audit({ meshId: mesh.id, eventType: "invite_revoked" });
    expect(audit.total).toBe(1);
    // Document 3: every admin list is text-searchable; the audit log by mesh slug or name and by actor.
    const bySlug = await as(admin).admin.audit({ q: mesh.slug.toUpperCase() });
    expect(new Set(bySlug.items.map((a) => a.mesh.id))).toEqual(new Set([mesh.id]));
    expect(bySlug.items.map((a) => a.eventType).sort()).toEqual(
      ["invite_created", "invite_revoked", "mesh_created"].sort(),
    );
    const ownerRow = await db.user.findUniqueOrThrow({ where: { id: owner.id } });
    const byActor = await as(admin).admin.audit({ q: ownerRow.email!.toUpperCase(), meshId: mesh.id });
    expect(byActor.total).toBeGreaterThanOrEqual(1);
    expect(byActor.items.every((a) => a.actorUserId === owner.id)).toBe(true);
    // Each event names its actor as people know them (the member's display name in the mesh), never an id.
    const member0 = await db.member.findFirstOrThrow({ where: { meshId: mesh.id, userId: owner.id } });
    expect(new Set(byActor.items.map((a) => a.actorName))).toEqual(new Set([member0.displayName]));
    expect((await as(admin).admin.audit({ q: `${mesh.slug}-nothing-like-it` })).total).toBe(0);
    const member = await db.member.findFirstOrThrow({ where: { meshId: mesh.id } });
    await db.presence.create({
      data: { meshId: mesh.id, memberId: member.id, nodeId: "n", connectionId: uid("conn") },
    });
    const sessions = await as(admin).admin.sessions({ q: mesh.slug, status: "active" });
    expect(sessions.items[0]).toMatchObject({ mesh: { id: mesh.id }, member: { id: member.id } });
    expect((await as(admin).admin.sessions({ q: mesh.slug, status: "disconnected" })).total).toBe(0);
  });
});
