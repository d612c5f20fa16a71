import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { afterAll, describe, expect, it } from "vitest";
import { makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb, uid } from "@/test/helpers";
import { appRouter, createCaller } from "../root";
import { createContext, responseMetaFromContext, type SessionUser } from "../trpc";

const db = testDb();
afterAll(() => db.$disconnect());
const as = (user: SessionUser | null) => createCaller(createContext({ user, db }));

/** Calls a query over the real tRPC HTTP handler, to see status and headers. */
async function httpQuery(path: string, input?: unknown) {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`;
  const res = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(`http://test/api/trpc/${path}${query}`),
    router: appRouter,
    createContext: () => createContext({ user: null, db }),
    responseMeta: responseMetaFromContext,
  });
  const body = (await res.json()) as { result: { data: { json: unknown } } };
  return { res, data: body.result.data.json as Record<string, unknown> };
}

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
    expect((await as(admin).admin.meshes({ q: tag, sort: "name", dir: "desc", pageSize: 1, page: 2 })).items.map((m) => m.id)).toEqual([a.id]);
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
    expect(Object.keys(after).sort()).toEqual(["activeMeshes", "activePresences", "meshes", "messages24h", "totalPresences"]);
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
    expect(bySlug.items.map((a) => a.eventType).sort()).toEqual(["invite_created", "invite_revoked", "mesh_created"].sort());
    const ownerRow = await db.user.findUniqueOrThrow({ where: { id: owner.id } });
    const byActor = await as(admin).admin.audit({ q: ownerRow.email!.toUpperCase(), meshId: mesh.id });
    expect(byActor.total).toBeGreaterThanOrEqual(1);
    expect(byActor.items.every((a) => a.actorUserId === owner.id)).toBe(true);
    expect((await as(admin).admin.audit({ q: `${mesh.slug}-nothing-like-it` })).total).toBe(0);
    const member = await db.member.findFirstOrThrow({ where: { meshId: mesh.id } });
    await db.presence.create({ data: { meshId: mesh.id, memberId: member.id, nodeId: "n", connectionId: uid("conn") } });
    const sessions = await as(admin).admin.sessions({ q: mesh.slug, status: "active" });
    expect(sessions.items[0]).toMatchObject({ mesh: { id: mesh.id }, member: { id: member.id } });
    expect((await as(admin).admin.sessions({ q: mesh.slug, status: "disconnected" })).total).toBe(0);
  });
});

describe("public", () => {
  it("stats: counts only, cached 60 s, with cache-control and x-cache MISS then HIT", async () => {
    const first = await httpQuery("public.stats");
    expect(first.res.headers.get("cache-control")).toBe("public, s-maxage=60");
    expect(first.res.headers.get("x-cache")).toBe("MISS");
    expect(Object.keys(first.data).sort()).toEqual(["lastUpdated", "meshesCreated", "messagesRouted", "peersActive"]);
    const second = await httpQuery("public.stats");
    expect(second.res.headers.get("x-cache")).toBe("HIT");
    expect(second.data).toEqual(first.data);
  });

  it("invite preview: valid with public caching, never changes usedCount", async () => {
    const owner = await makeUser(db, { name: "Ines Inviter" });
    const mesh = await makeMesh(db, owner, "Preview mesh");
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, role: "member", maxUses: 2 });
    const { res, data } = await httpQuery("public.invitePreview", { token: invite.token });
    expect(res.headers.get("cache-control")).toBe("public, max-age=30");
    expect(data).toMatchObject({ valid: true, meshName: "Preview mesh", inviterName: "Ines Inviter", role: "member", memberCount: 1 });
    await httpQuery("public.invitePreview", { token: invite.token });
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(0);
  });

  it("invite preview: each failure reason, with metadata where known and no-store", async () => {
    const owner = await makeUser(db, { name: "Ian" });
    const mesh = await makeMesh(db, owner, "Reasons mesh");
    const make = (opts: object = {}) => as(owner).my.createInvite({ meshId: mesh.id, ...opts });
    const expired = await make();
    await db.invite.update({ where: { id: expired.inviteId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const revoked = await make();
    await as(owner).my.revokeInvite({ inviteId: revoked.inviteId });
    const exhausted = await make({ maxUses: 1 });
    await db.invite.update({ where: { id: exhausted.inviteId }, data: { usedCount: 1 } });
    const deleted = await make();
    await db.invite.delete({ where: { id: deleted.inviteId } });
    const archivedMesh = await makeMesh(db, owner, "Archived mesh");
    const onArchived = await as(owner).my.createInvite({ meshId: archivedMesh.id });
    await as(owner).my.archiveMesh({ meshId: archivedMesh.id });
    const tampered = flipOne(revoked.token);

    const cases: [string, string, string | null][] = [
      ["not a token", "malformed", null],
      [tampered, "bad_signature", null],
      [expired.token, "expired", "Reasons mesh"],
      [revoked.token, "revoked", "Reasons mesh"],
      [exhausted.token, "exhausted", "Reasons mesh"],
      [onArchived.token, "mesh_archived", "Archived mesh"],
      [deleted.token, "not_found", "Reasons mesh"],
    ];
    for (const [token, reason, meshName] of cases) {
      const { res, data } = await httpQuery("public.invitePreview", { token });
      expect(data, reason).toMatchObject({ valid: false, reason, meshName });
      expect(res.headers.get("cache-control"), reason).toBe("no-store");
    }
    // Rule 5, "each failure carries any metadata that can be given": a forged signature gives what the
    // token claims of itself (role, expiry) and nothing read for its mesh; a signed token without its
    // invite row gives its role and expiry and the mesh its owner key signed for.
    const forged = (await httpQuery("public.invitePreview", { token: tampered })).data as Record<string, unknown>;
    expect(forged).toMatchObject({ reason: "bad_signature", role: "member", meshName: null, meshSlug: null, inviterName: null, memberCount: null });
    expect(new Date(forged.expiresAt as string).getTime()).toBeGreaterThan(Date.now());
    const gone = (await httpQuery("public.invitePreview", { token: deleted.token })).data as Record<string, unknown>;
    expect(gone).toMatchObject({ reason: "not_found", role: "member", meshName: "Reasons mesh", memberCount: 1, inviterName: null });
    expect(new Date(gone.expiresAt as string).getTime()).toBeGreaterThan(Date.now());
  });
});

/** Changes one character inside the signature part of a token's JSON, keeping it decodable. */
function flipOne(token: string): string {
  const json = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Record<string, string>;
  const sig = json.signature ?? "";
  json.signature = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
  return Buffer.from(JSON.stringify(json)).toString("base64url");
}
