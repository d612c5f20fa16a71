import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { verifyInviteToken } from "@/server/core/invites";
import { addMember, makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { createCaller } from "../root";
import { createContext, type SessionUser } from "../trpc";
import { trpcOutcome } from "@/test/rejection";

const db = testDb();
afterAll(() => db.$disconnect());
const as = (user: SessionUser | null) => createCaller(createContext({ user, db }));

const codeOf = (p: Promise<unknown>) => trpcOutcome(p);

describe("my: meshes", () => {
  it("creates a mesh with its owner as first member and lists it with myRole, isOwner, memberCount", async () => {
    const owner = await makeUser(db);
    const slug = uid("Team").toLowerCase();
    const created = await as(owner).my.createMesh({ name: "Team", slug });
    expect(created).toEqual({ id: expect.any(String), slug });
    const list = await as(owner).my.meshes({ page: 1, pageSize: 10 });
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: created.id, slug, myRole: "owner", isOwner: true, memberCount: 1 });
    const row = await db.mesh.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.ownerSecretKeyEnc).toMatch(/^v1\./);
    expect(row.rootKeyEnc).toMatch(/^v1\./);
    expect(JSON.stringify(await as(owner).my.mesh({ meshId: created.id }))).not.toMatch(/SecretKey|rootKey/);
    expect(await db.auditEvent.count({ where: { meshId: created.id, eventType: "mesh_created" } })).toBe(1);
  });

  it("rejects a taken slug with CONFLICT, also when two creations race", async () => {
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const slug = uid("race").toLowerCase();
    const results = await Promise.allSettled([
      as(a).my.createMesh({ name: "A", slug }),
      as(b).my.createMesh({ name: "B", slug }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failure = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failure.reason).toBeInstanceOf(TRPCError);
    expect((failure.reason as TRPCError).code).toBe("CONFLICT");
    expect((failure.reason as TRPCError).message).toBe("slug_taken");
    expect(await codeOf(as(a).my.createMesh({ name: "Again", slug }))).toBe("CONFLICT:slug_taken");
    expect(await db.mesh.count({ where: { slug } })).toBe(1);
  });

  it("answers a stranger NOT_FOUND for a mesh that exists, exactly as for one that does not", async () => {
    const [owner, stranger] = [await makeUser(db), await makeUser(db)];
    const mesh = await makeMesh(db, owner);
    const existing = await codeOf(as(stranger).my.mesh({ meshId: mesh.id }));
    const missing = await codeOf(as(stranger).my.mesh({ meshId: "018f0000-0000-7000-8000-000000000000" }));
    expect(existing).toBe("NOT_FOUND:mesh_not_found");
    expect(missing).toBe(existing);
  });

  it("archives for the owner only and lets members leave", async () => {
    const [owner, member, stranger] = [await makeUser(db), await makeUser(db), await makeUser(db)];
    const mesh = await makeMesh(db, owner);
    await addMember(db, mesh.id, member);
    expect(await codeOf(as(member).my.archiveMesh({ meshId: mesh.id }))).toBe("FORBIDDEN:owner_only");
    expect(await codeOf(as(stranger).my.archiveMesh({ meshId: mesh.id }))).toBe("NOT_FOUND:mesh_not_found");
    expect(await codeOf(as(owner).my.leaveMesh({ meshId: mesh.id }))).toBe("CONFLICT:owner_cannot_leave");

    const left = await as(member).my.leaveMesh({ meshId: mesh.id });
    expect(left.revokedAt).toBeInstanceOf(Date);
    expect(await codeOf(as(member).my.mesh({ meshId: mesh.id }))).toBe("NOT_FOUND:mesh_not_found");

    const archived = await as(owner).my.archiveMesh({ meshId: mesh.id });
    expect(archived.archivedAt).toBeInstanceOf(Date);
    expect((await db.mesh.findUniqueOrThrow({ where: { id: mesh.id } })).archivedAt).not.toBeNull();
    const types = (await db.auditEvent.findMany({ where: { meshId: mesh.id } })).map((e) => e.eventType).sort();
    expect(types).toEqual(["member_left", "mesh_archived", "mesh_created"]);
  });
});

describe("my: invites", () => {
  it("issues a signed invite with both link forms, lists it, and revokes it", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({
      meshId: mesh.id,
      role: "observer",
      expiresInHours: 2,
      maxUses: 3,
    });
    expect(invite.inviteLink).toBe(`ic://join/${invite.token}`);
    expect(invite.joinUrl).toBe(`https://mesh.example.test/join/${invite.token}`);
    const verified = verifyInviteToken(invite.token);
    expect(verified.ok).toBe(true);
    if (verified.ok)
      expect(verified.payload).toMatchObject({
        mesh_id: mesh.id,
        mesh_slug: mesh.slug,
        role: "observer",
        broker_url: "wss://broker.example.test",
      });
    expect(await db.invite.count({ where: { token: invite.token, maxUses: 3, usedCount: 0 } })).toBe(1);

    const mine = await as(owner).my.invites();
    expect(mine.find((i) => i.id === invite.inviteId)).toMatchObject({ state: "valid", joinUrl: invite.joinUrl });
    await as(owner).my.revokeInvite({ inviteId: invite.inviteId });
    const detail = await as(owner).my.mesh({ meshId: mesh.id });
    expect(detail.invites.find((i) => i.id === invite.inviteId)?.state).toBe("revoked");
    expect(JSON.stringify(detail.invites)).not.toContain(invite.token);
  });

  it("gives every invite its own token, even two alike in every field made in the same second", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const same = { meshId: mesh.id, role: "member" as const, expiresInHours: 5 };
    const [a, b, c] = await Promise.all([
      as(owner).my.createInvite(same),
      as(owner).my.createInvite(same),
      as(owner).my.createInvite(same),
    ]);
    expect(new Set([a.token, b.token, c.token]).size).toBe(3);
    for (const invite of [a, b, c]) expect(verifyInviteToken(invite.token).ok).toBe(true);
  });

  it("gives sixty alike invites made within a second, twenty at a time, sixty tokens (no unique-key 500)", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const same = { meshId: mesh.id, role: "member" as const, expiresInHours: 5 };
    const tokens: string[] = [];
    for (let round = 0; round < 3; round++) {
      const made = await Promise.all(Array.from({ length: 20 }, () => as(owner).my.createInvite(same)));
      tokens.push(...made.map((invite) => invite.token));
    }
    expect(new Set(tokens).size).toBe(60);
  });

  it("lets mesh admins invite members but not admins, and nobody else invite at all", async () => {
    const [owner, admin, member, stranger] = [
      await makeUser(db),
      await makeUser(db),
      await makeUser(db),
      await makeUser(db),
    ];
    const mesh = await makeMesh(db, owner);
    await addMember(db, mesh.id, admin, { role: "admin" });
    await addMember(db, mesh.id, member);
    expect(await codeOf(as(admin).my.createInvite({ meshId: mesh.id, role: "member" }))).toBe("OK");
    expect(await codeOf(as(admin).my.createInvite({ meshId: mesh.id, role: "admin" }))).toBe(
      "FORBIDDEN:role_not_allowed",
    );
    expect(await codeOf(as(member).my.createInvite({ meshId: mesh.id }))).toBe("FORBIDDEN:invite_not_allowed");
    expect(await codeOf(as(stranger).my.createInvite({ meshId: mesh.id }))).toBe("NOT_FOUND:mesh_not_found");
    await as(owner).my.archiveMesh({ meshId: mesh.id });
    expect(await codeOf(as(owner).my.createInvite({ meshId: mesh.id }))).toBe("CONFLICT:mesh_archived");
  });

  it("rejects bad input with BAD_REQUEST", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    for (const bad of [
      { meshId: "nope" },
      { meshId: mesh.id, role: "owner" },
      { meshId: mesh.id, expiresInHours: 0 },
      { meshId: mesh.id, maxUses: -1 },
    ]) {
      expect(await codeOf(as(owner).my.createInvite(bad as never))).toMatch(/^BAD_REQUEST/);
    }
  });
});
