// Document 3 (spec/mesh-web-api.md), checked with the spec's own literal values: each test names the
// sentence it checks. Real PostgreSQL.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { afterAll, describe, expect, it } from "vitest";
import { appRouter, createCaller } from "@/server/api/root";
import { createContext, responseMetaFromContext, type SessionUser } from "@/server/api/trpc";
import { LIVE_POLL_MS } from "@/components/live/poll";
import { Prisma, type Db } from "@/server/core/db";
import { adminMeshDetail } from "@/server/services/admin/mesh-detail";
import { adminMeshSummary } from "@/server/services/admin/summary";
import { exportMyData } from "@/server/services/export/export-my-data";
import { getMeshStream } from "@/server/services/meshes/get-stream";
import { computePublicStats, PublicStatsCache } from "@/server/services/stats/public-stats";
import { testDb, uid } from "@/test/helpers";
import { addMember, adminCtx, ctxOf, makeMesh, makeUser } from "@/test/mesh-fixtures";

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

class Rollback extends Error {}

describe("Document 3: public stats", () => {
  it('GET /public/stats: "Counts messages queued, meshes not archived, presences with disconnectedAt null"', async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner, "Stats mesh");
    const member = await addMember(db, mesh.id, await makeUser(db));
    const now = new Date();
    const hour = 3_600_000;
    // One snapshot (REPEATABLE READ): other test files writing at the same time do not move the counts.
    const run = db.$transaction(
      async (tx) => {
        const before = await computePublicStats(tx, now);
        const envelope = (over: { expiresAt: Date }) => ({
          meshId: mesh.id,
          senderMemberId: member.id,
          targetSpec: { to: "*" },
          byteSize: 3,
          ciphertext: Buffer.from("abc"),
          ...over,
        });
        // Queued and waiting, queued and delivered (still held), and one past its time to live (not yet swept).
        await tx.messageEnvelope.create({ data: envelope({ expiresAt: new Date(now.getTime() + hour) }) });
        const delivered = await tx.messageEnvelope.create({
          data: envelope({ expiresAt: new Date(now.getTime() + hour) }),
        });
        await tx.messageDelivery.create({ data: { envelopeId: delivered.id, deliveredAt: now } });
        await tx.messageEnvelope.create({ data: envelope({ expiresAt: new Date(now.getTime() - 1) }) });
        // A connected presence counts, a disconnected one does not.
        await tx.presence.create({
          data: { meshId: mesh.id, memberId: member.id, nodeId: "n", connectionId: uid("c") },
        });
        await tx.presence.create({
          data: { meshId: mesh.id, memberId: member.id, nodeId: "n", connectionId: uid("c"), disconnectedAt: now },
        });
        const withMesh = await computePublicStats(tx, now);
        // An archived mesh stops counting.
        await tx.mesh.update({ where: { id: mesh.id }, data: { archivedAt: now } });
        const after = await computePublicStats(tx, now);
        expect(withMesh.messagesRouted - before.messagesRouted).toBe(2);
        expect(withMesh.peersActive - before.peersActive).toBe(1);
        expect(withMesh.meshesCreated).toBe(before.meshesCreated);
        expect(after.meshesCreated - before.meshesCreated).toBe(-1);
        expect(after.lastUpdated).toEqual(now);
        throw new Rollback();
      },
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
    );
    await expect(run).rejects.toBeInstanceOf(Rollback);
  });
});

/** A mesh with one member and `n` of each: live presences, envelopes and audit events, oldest first. */
async function busyMesh(n: { presences: number; envelopes: number; audit: number }) {
  const owner = await makeUser(db);
  const mesh = await makeMesh(db, owner, "Busy mesh");
  const member = await addMember(db, mesh.id, await makeUser(db));
  // After the mesh's own events (its creation), so these are the most recent.
  const t0 = Date.now() + 60_000;
  const at = (i: number) => new Date(t0 + i * 1_000);
  await db.presence.createMany({
    data: Array.from({ length: n.presences }, (_, i) => ({
      meshId: mesh.id,
      memberId: member.id,
      nodeId: "n",
      connectionId: uid(`c${i}`),
      connectedAt: at(i),
    })),
  });
  await db.messageEnvelope.createMany({
    data: Array.from({ length: n.envelopes }, (_, i) => ({
      meshId: mesh.id,
      senderMemberId: member.id,
      targetSpec: { to: "*" },
      byteSize: 40,
      ciphertext: Buffer.from(`ciphertext-${i}-`.padEnd(40, "z")),
      createdAt: at(i),
      expiresAt: new Date(Date.now() + 3_600_000),
    })),
  });
  await db.auditEvent.createMany({
    data: Array.from({ length: n.audit }, (_, i) => ({
      meshId: mesh.id,
      eventType: "message_sent" as const,
      createdAt: at(i),
    })),
  });
  return { owner, mesh, at };
}

describe("Document 3: limits", () => {
  it('stream: "Up to 20 live presences", "Up to 50 most recent message envelopes" with "ciphertextPreview of 24 characters", "Up to 20 recent audit events"', async () => {
    const { owner, mesh, at } = await busyMesh({ presences: 21, envelopes: 51, audit: 21 });
    const stream = await getMeshStream(ctxOf(db, owner), { meshId: mesh.id });
    expect(stream.presences).toHaveLength(20);
    expect(stream.envelopes).toHaveLength(50);
    expect(stream.auditEvents).toHaveLength(20);
    // The most recent ones.
    expect(new Date(stream.envelopes[0]!.createdAt).getTime()).toBe(at(50).getTime());
    expect(new Date(stream.auditEvents[0]!.createdAt).getTime()).toBe(at(20).getTime());
    for (const e of stream.envelopes) expect(e.ciphertextPreview).toHaveLength(24);
  });

  it('admin mesh detail: "last 50 audit events"', async () => {
    const { mesh } = await busyMesh({ presences: 0, envelopes: 0, audit: 51 });
    const detail = await adminMeshDetail(adminCtx(db), { meshId: mesh.id });
    expect(detail.auditEvents).toHaveLength(50);
  });

  it('export: "audit events of owned meshes only (at most 5000 rows)"', async () => {
    const { owner, mesh } = await busyMesh({ presences: 0, envelopes: 0, audit: 5_001 });
    // Another user's mesh, where the owner is only a member, is not in the owner's audit rows.
    const stranger = await makeUser(db);
    const theirs = await makeMesh(db, stranger, "Not mine");
    await addMember(db, theirs.id, owner);
    await db.auditEvent.create({ data: { meshId: theirs.id, eventType: "message_sent" } });
    const bundle = await exportMyData(ctxOf(db, owner));
    expect(bundle.auditEvents).toHaveLength(5_000);
    expect(bundle.auditEvents.every((a) => a.meshId === mesh.id)).toBe(true);
  }, 30_000);

  it('admin summary: "messages24h counts audit events of type message_sent in the past 24 hours"', async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner, "Summary mesh");
    const now = new Date();
    const hours = (h: number) => new Date(now.getTime() - h * 3_600_000);
    const run = db.$transaction(
      async (tx) => {
        const before = await adminMeshSummary({ ...adminCtx(tx as unknown as Db), now: () => now });
        await tx.auditEvent.createMany({
          data: [
            { meshId: mesh.id, eventType: "message_sent", createdAt: hours(23.99) },
            { meshId: mesh.id, eventType: "message_sent", createdAt: hours(24) },
            { meshId: mesh.id, eventType: "message_sent", createdAt: hours(24.01) },
            { meshId: mesh.id, eventType: "status_changed", createdAt: hours(1) },
          ],
        });
        const after = await adminMeshSummary({ ...adminCtx(tx as unknown as Db), now: () => now });
        // Within 24 hours, the boundary included; another event type never.
        expect(after.messages24h - before.messages24h).toBe(2);
        throw new Rollback();
      },
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
    );
    await expect(run).rejects.toBeInstanceOf(Rollback);
  });

  it('stats cache: "60 seconds in memory"', async () => {
    let now = Date.parse("2026-11-25T00:00:00Z");
    const cache = new PublicStatsCache(() => now);
    expect((await cache.get(db)).cache).toBe("MISS");
    now += 59_999;
    expect((await cache.get(db)).cache).toBe("HIT");
    now += 1;
    expect((await cache.get(db)).cache).toBe("MISS");
  });

  it('live page polling: "4000 ms"', () => {
    expect(LIVE_POLL_MS).toBe(4000);
  });
});

describe("Document 3: public router", () => {
  it('stats: "aggregate counts only", "cache-control public with s-maxage 60; header x-cache HIT or MISS"', async () => {
    const first = await httpQuery("public.stats");
    expect(first.res.headers.get("cache-control")).toBe("public, s-maxage=60");
    expect(first.res.headers.get("x-cache")).toBe("MISS");
    expect(Object.keys(first.data).sort()).toEqual(["lastUpdated", "meshesCreated", "messagesRouted", "peersActive"]);
    const second = await httpQuery("public.stats");
    expect(second.res.headers.get("x-cache")).toBe("HIT");
    expect(second.data).toEqual(first.data);
  });

  it('invite preview: "valid preview caching: cache-control public with max-age 30"; rule 2 (meshName, inviterName, role, member count, expiresAt); rule 3 "usedCount is never changed by a preview"', async () => {
    const owner = await makeUser(db, { name: "Ines Inviter" });
    const mesh = await makeMesh(db, owner, "Preview mesh");
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, role: "member", maxUses: 2 });
    const { res, data } = await httpQuery("public.invitePreview", { token: invite.token });
    expect(res.headers.get("cache-control")).toBe("public, max-age=30");
    expect(data).toMatchObject({
      valid: true,
      meshName: "Preview mesh",
      inviterName: "Ines Inviter",
      role: "member",
      memberCount: 1,
    });
    await httpQuery("public.invitePreview", { token: invite.token });
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(0);
  });

  it('invite preview: rule 4, the seven reasons "malformed, bad_signature, expired, revoked, exhausted, mesh_archived and not_found", "failed preview caching: cache-control no-store", rule 5 metadata', async () => {
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
    expect(forged).toMatchObject({
      reason: "bad_signature",
      role: "member",
      meshName: null,
      meshSlug: null,
      inviterName: null,
      memberCount: null,
    });
    expect(new Date(forged.expiresAt as string).getTime()).toBeGreaterThan(Date.now());
    const gone = (await httpQuery("public.invitePreview", { token: deleted.token })).data as Record<string, unknown>;
    expect(gone).toMatchObject({
      reason: "not_found",
      role: "member",
      meshName: "Reasons mesh",
      memberCount: 1,
      inviterName: null,
    });
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
