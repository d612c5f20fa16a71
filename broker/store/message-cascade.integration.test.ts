// The message tables (and the audit events' member and mesh) have no foreign keys (docs/performance.md):
// triggers remove what a deleted envelope, member or mesh leaves behind, and the store guard (an
// advisory lock, shared by stores and taken exclusively before deletes) keeps a member deleted while a
// batch is stored from leaving rows behind, whichever comes first.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { joinedPeer, meshWithInvite } from "../test-support";
import { testDb } from "@/test/helpers";
import { AuditMeshMissing, recordAudit } from "@/server/services/audit/record-audit";
import { ackMessages, insertMessages, type NewMessage } from "./message-store";

const db = testDb();
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 6 });
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

async function meshOf(size: number) {
  // More joins than an uncapped invite admits (INVITE_DEFAULT_MAX_USES): the cap is set.
  const { mesh, invite } = await meshWithInvite(db, { maxUses: 1000 });
  const members: string[] = [];
  for (let i = 0; i < size; i++) members.push((await joinedPeer(db, invite.token, `p${i}`)).memberId);
  return { meshId: mesh.id, members };
}

function message(meshId: string, sender: string, recipients: string[]): NewMessage {
  return {
    id: randomUUID(),
    meshId,
    senderMemberId: sender,
    targetSpec: { kind: "mesh" },
    priority: "normal",
    ciphertext: Buffer.alloc(32, 7),
    recipients,
  };
}

const count = async (sql: string, ...values: unknown[]) =>
  Number((await pool.query<{ n: string }>(sql, values)).rows[0]?.n);
const queueRows = (meshId: string) =>
  count(
    "SELECT count(*) AS n FROM message_recipients r JOIN message_envelopes e ON e.id = r.envelope_id WHERE e.mesh_id = $1",
    meshId,
  );
/** Rows whose parent is gone: what a foreign key would have refused or cascaded. */
const orphans = () =>
  count(`SELECT (SELECT count(*) FROM message_recipients r WHERE NOT EXISTS (SELECT 1 FROM message_envelopes e WHERE e.id = r.envelope_id)
                   OR NOT EXISTS (SELECT 1 FROM members m WHERE m.id = r.member_id))
              + (SELECT count(*) FROM message_envelopes e WHERE NOT EXISTS (SELECT 1 FROM members m WHERE m.id = e.sender_member_id)
                   OR NOT EXISTS (SELECT 1 FROM meshes m WHERE m.id = e.mesh_id))
              + (SELECT count(*) FROM audit_events a WHERE NOT EXISTS (SELECT 1 FROM meshes m WHERE m.id = a.mesh_id))
              + (SELECT count(*) FROM message_deliveries d WHERE NOT EXISTS (SELECT 1 FROM message_envelopes e WHERE e.id = d.envelope_id)) AS n`);
const deliveries = (ids: string[]) =>
  count("SELECT count(*) AS n FROM message_deliveries WHERE envelope_id = ANY($1::uuid[])", ids);

describe("message tables without foreign keys", () => {
  it("deleting envelopes removes their queue rows", async () => {
    const { meshId, members } = await meshOf(3);
    const [a, ...rest] = members as [string, ...string[]];
    await insertMessages(pool, [message(meshId, a, rest), message(meshId, a, rest)], 60_000);
    expect(await queueRows(meshId)).toBe(4);
    await pool.query("DELETE FROM message_envelopes WHERE mesh_id = $1", [meshId]);
    expect(await count("SELECT count(*) AS n FROM message_recipients WHERE member_id = ANY($1::uuid[])", rest)).toBe(0);
  });

  it("deleting a member removes its queue rows and the messages it sent, with their queue rows", async () => {
    const { meshId, members } = await meshOf(3);
    const [a, b, c] = members as [string, string, string];
    const [fromA] = await insertMessages(pool, [message(meshId, a, [b, c]), message(meshId, b, [a, c])], 60_000);
    // a's message delivered (both copies acknowledged): its delivery row goes with it.
    await ackMessages(
      pool,
      [b, c].map((memberId) => ({ memberId, envelopeId: fromA!.id })),
    );
    expect(await deliveries([fromA!.id])).toBe(1);
    await db.member.delete({ where: { id: a } });
    expect(await deliveries([fromA!.id])).toBe(0);
    expect(await count("SELECT count(*) AS n FROM message_envelopes WHERE id = $1", fromA!.id)).toBe(0);
    // b's message stays, for c only.
    expect(
      await count(
        "SELECT count(*) AS n FROM message_recipients WHERE envelope_id IN (SELECT id FROM message_envelopes WHERE mesh_id = $1)",
        meshId,
      ),
    ).toBe(1);
    expect(await orphans()).toBe(0);
  });

  it("deleting a mesh removes every envelope, queue row and audit event of it", async () => {
    const { meshId, members } = await meshOf(3);
    const [a, b, c] = members as [string, string, string];
    const stored = await insertMessages(pool, [message(meshId, a, [b, c]), message(meshId, c, [a])], 60_000);
    await ackMessages(pool, [{ memberId: a, envelopeId: stored[1]!.id }]);
    expect(await deliveries([stored[1]!.id])).toBe(1);
    // The broker's message_sent events and the web app's (mesh_created, member_joined).
    expect(
      await count("SELECT count(*) AS n FROM audit_events WHERE mesh_id = $1 AND event_type = 'message_sent'", meshId),
    ).toBe(2);
    expect(
      await count("SELECT count(*) AS n FROM audit_events WHERE mesh_id = $1 AND event_type <> 'message_sent'", meshId),
    ).toBeGreaterThan(0);
    await db.mesh.delete({ where: { id: meshId } });
    expect(await count("SELECT count(*) AS n FROM message_envelopes WHERE mesh_id = $1", meshId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM message_recipients WHERE member_id = ANY($1::uuid[])", members)).toBe(
      0,
    );
    expect(await count("SELECT count(*) AS n FROM audit_events WHERE mesh_id = $1", meshId)).toBe(0);
    expect(await deliveries([stored[1]!.id])).toBe(0);
  });

  it("an audit event of the web app needs its mesh; a mesh deleted while one is written takes it along", async () => {
    const gone = randomUUID();
    await expect(
      db.$transaction((tx) => recordAudit(tx, { meshId: gone, type: "mesh_archived" })),
    ).rejects.toBeInstanceOf(AuditMeshMissing);
    const { meshId } = await meshOf(1);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let written!: () => void;
    const wrote = new Promise<void>((r) => (written = r));
    const writing = db.$transaction(async (tx) => {
      await recordAudit(tx, { meshId, type: "mesh_archived" });
      written();
      await held;
    });
    await wrote;
    // The delete waits for the writing transaction (it holds the mesh row as the foreign key's check did).
    const deleting = db.mesh.delete({ where: { id: meshId } });
    await new Promise((r) => setTimeout(r, 200));
    release();
    await writing;
    await deleting;
    expect(await count("SELECT count(*) AS n FROM audit_events WHERE mesh_id = $1", meshId)).toBe(0);
  });

  it("meshes deleted while batches are stored leave no envelope, queue row or audit event behind", async () => {
    const meshes = await Promise.all(Array.from({ length: 4 }, () => meshOf(3)));
    const batches = Array.from({ length: 16 }, (_, i) =>
      insertMessages(
        pool,
        Array.from({ length: 20 }, (_, j) => {
          const { meshId, members } = meshes[(i + j) % meshes.length]!;
          return message(
            meshId,
            members[j % 3]!,
            members.filter((_, k) => k !== j % 3),
          );
        }),
        60_000,
      ),
    );
    const deletes = meshes.map(({ meshId }, i) =>
      new Promise((r) => setTimeout(r, i * 4)).then(() => db.mesh.delete({ where: { id: meshId } })),
    );
    const results = await Promise.allSettled([...batches, ...deletes]);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const ids = meshes.map((m) => m.meshId);
    expect(await count("SELECT count(*) AS n FROM audit_events WHERE mesh_id = ANY($1::uuid[])", ids)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM message_envelopes WHERE mesh_id = ANY($1::uuid[])", ids)).toBe(0);
    expect(await orphans()).toBe(0);
  });

  it("a deleted member's audit events keep their mesh and lose the member", async () => {
    const { meshId, members } = await meshOf(2);
    const [a, b] = members as [string, string];
    await insertMessages(pool, [message(meshId, a, [b])], 60_000);
    const event =
      "SELECT count(*) AS n FROM audit_events WHERE mesh_id = $1 AND event_type = 'message_sent' AND actor_member_id IS NOT DISTINCT FROM $2";
    expect(await count(event, meshId, a)).toBe(1);
    await db.member.delete({ where: { id: a } });
    expect(await count(event, meshId, a)).toBe(0);
    expect(await count(event, meshId, null)).toBe(1);
  });

  it("a sender deleted while its batch waits is not stored (null); the batch's other messages are", async () => {
    const { meshId, members } = await meshOf(3);
    const [a, b, c] = members as [string, string, string];
    const deleting = await pool.connect();
    try {
      await deleting.query("BEGIN");
      await deleting.query("DELETE FROM members WHERE id = $1", [a]);
      const storing = insertMessages(pool, [message(meshId, a, [b, c]), message(meshId, b, [c])], 60_000);
      await new Promise((r) => setTimeout(r, 200));
      await deleting.query("COMMIT");
      const [fromA, fromB] = await storing;
      expect(fromA).toBeNull();
      expect(await count("SELECT count(*) AS n FROM message_recipients WHERE envelope_id = $1", fromB!.id)).toBe(1);
    } finally {
      deleting.release();
    }
    expect(await count("SELECT count(*) AS n FROM message_envelopes WHERE sender_member_id = $1", a)).toBe(0);
    expect(await orphans()).toBe(0);
  });

  it("a recipient deleted while the batch waits for its lock gets no queue row; the rest is stored", async () => {
    const { meshId, members } = await meshOf(3);
    const [a, b, c] = members as [string, string, string];
    const deleting = await pool.connect();
    try {
      await deleting.query("BEGIN");
      await deleting.query("DELETE FROM members WHERE id = $1", [c]);
      const storing = insertMessages(pool, [message(meshId, a, [b, c])], 60_000);
      // The store waits for the deleting transaction's exclusive hold of the store guard.
      await new Promise((r) => setTimeout(r, 200));
      await deleting.query("COMMIT");
      const [stored] = await storing;
      expect(await count("SELECT count(*) AS n FROM message_recipients WHERE envelope_id = $1", stored!.id)).toBe(1);
    } finally {
      deleting.release();
    }
    expect(await orphans()).toBe(0);
  });

  it("members deleted while batches are stored leave no orphan rows", async () => {
    const { meshId, members } = await meshOf(12);
    const senders = members.slice(0, 4);
    const doomed = members.slice(4);
    const batches = Array.from({ length: 24 }, (_, i) =>
      insertMessages(
        pool,
        Array.from({ length: 20 }, (_, j) => message(meshId, senders[(i + j) % senders.length]!, doomed)),
        60_000,
      ),
    );
    const deletes = doomed.map((id, i) =>
      new Promise((r) => setTimeout(r, i * 3)).then(() => db.member.delete({ where: { id } })),
    );
    const results = await Promise.allSettled([...batches, ...deletes]);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(await count("SELECT count(*) AS n FROM message_recipients WHERE member_id = ANY($1::uuid[])", doomed)).toBe(
      0,
    );
    expect(await orphans()).toBe(0);
  });
});
