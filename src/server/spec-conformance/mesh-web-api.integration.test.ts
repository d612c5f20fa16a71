// Document 3 (spec/mesh-web-api.md), checked with the spec's own literal values: each test names the
// sentence it checks. Real PostgreSQL.
import { afterAll, describe, expect, it } from "vitest";
import { Prisma } from "@/server/core/db";
import { computePublicStats } from "@/server/services/stats/public-stats";
import { testDb, uid } from "@/test/helpers";
import { addMember, makeMesh, makeUser } from "@/test/mesh-fixtures";

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
