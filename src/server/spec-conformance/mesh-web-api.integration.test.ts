// Document 3 (spec/mesh-web-api.md), checked with the spec's own literal values: each test names the
// sentence it checks. Real PostgreSQL.
import { afterAll, describe, expect, it } from "vitest";
import { LIVE_POLL_MS } from "@/components/live/live-stream";
import { Prisma, type Db } from "@/server/core/db";
import { adminMeshDetail } from "@/server/services/admin/mesh-detail";
import { adminMeshSummary } from "@/server/services/admin/summary";
import { exportMyData } from "@/server/services/export/export-my-data";
import { getMeshStream } from "@/server/services/meshes/get-stream";
import { computePublicStats, PublicStatsCache } from "@/server/services/stats/public-stats";
import { testDb, uid } from "@/test/helpers";
import { actorOf, addMember, makeMesh, makeUser } from "@/test/mesh-fixtures";

const db = testDb();
afterAll(() => db.$disconnect());

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
        const envelope = (over: { deliveredAt?: Date; expiresAt: Date }) => ({
          meshId: mesh.id,
          senderMemberId: member.id,
          targetSpec: { to: "*" },
          byteSize: 3,
          ciphertext: Buffer.from("abc"),
          ...over,
        });
        // Queued and waiting, queued and delivered (still held), and one past its time to live (not yet swept).
        await tx.messageEnvelope.create({ data: envelope({ expiresAt: new Date(now.getTime() + hour) }) });
        await tx.messageEnvelope.create({ data: envelope({ expiresAt: new Date(now.getTime() + hour), deliveredAt: now }) });
        await tx.messageEnvelope.create({ data: envelope({ expiresAt: new Date(now.getTime() - 1) }) });
        // A connected presence counts, a disconnected one does not.
        await tx.presence.create({ data: { meshId: mesh.id, memberId: member.id, nodeId: "n", connectionId: uid("c") } });
        await tx.presence.create({ data: { meshId: mesh.id, memberId: member.id, nodeId: "n", connectionId: uid("c"), disconnectedAt: now } });
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
  await db.presence.createMany({ data: Array.from({ length: n.presences }, (_, i) => ({ meshId: mesh.id, memberId: member.id, nodeId: "n", connectionId: uid(`c${i}`), connectedAt: at(i) })) });
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
  await db.auditEvent.createMany({ data: Array.from({ length: n.audit }, (_, i) => ({ meshId: mesh.id, eventType: "message_sent" as const, createdAt: at(i) })) });
  return { owner, mesh, at };
}

describe("Document 3: limits", () => {
  it('stream: "Up to 20 live presences", "Up to 50 most recent message envelopes" with "ciphertextPreview of 24 characters", "Up to 20 recent audit events"', async () => {
    const { owner, mesh, at } = await busyMesh({ presences: 21, envelopes: 51, audit: 21 });
    const stream = await getMeshStream({ db }, actorOf(owner), { meshId: mesh.id });
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
    const detail = await adminMeshDetail(db, { meshId: mesh.id });
    expect(detail.auditEvents).toHaveLength(50);
  });

  it('export: "audit events of owned meshes only (at most 5000 rows)"', async () => {
    const { owner, mesh } = await busyMesh({ presences: 0, envelopes: 0, audit: 5_001 });
    // Another user's mesh, where the owner is only a member, is not in the owner's audit rows.
    const stranger = await makeUser(db);
    const theirs = await makeMesh(db, stranger, "Not mine");
    await addMember(db, theirs.id, owner);
    await db.auditEvent.create({ data: { meshId: theirs.id, eventType: "message_sent" } });
    const bundle = await exportMyData({ db }, actorOf(owner));
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
        const before = await adminMeshSummary(tx as unknown as Db, now);
        await tx.auditEvent.createMany({
          data: [
            { meshId: mesh.id, eventType: "message_sent", createdAt: hours(23.99) },
            { meshId: mesh.id, eventType: "message_sent", createdAt: hours(24) },
            { meshId: mesh.id, eventType: "message_sent", createdAt: hours(24.01) },
            { meshId: mesh.id, eventType: "status_changed", createdAt: hours(1) },
          ],
        });
        const after = await adminMeshSummary(tx as unknown as Db, now);
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
