import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { EXPORT_AUDIT_LIMIT } from "@/server/services/export/export-my-data";
import { STREAM_LIMITS } from "@/server/services/meshes/get-stream";
import { addMember, makeMesh, makeUser } from "@/test/mesh-fixtures";
import { testDb } from "@/test/helpers";
import { createCaller } from "../root";
import { createContext, type SessionUser } from "../trpc";

const db = testDb();
afterAll(() => db.$disconnect());
const as = (user: SessionUser | null) => createCaller(createContext({ user, db }));

describe("my.stream", () => {
  it("holds at most 20 live presences, 50 newest envelopes with a 24-character preview, 20 audit events", async () => {
    const owner = await makeUser(db, { name: "Owner" });
    const mesh = await makeMesh(db, owner);
    const sender = await db.member.findFirstOrThrow({ where: { meshId: mesh.id, userId: owner.id } });
    const extra = 5;
    await db.presence.createMany({
      data: Array.from({ length: STREAM_LIMITS.presences + extra }, (_, i) => ({
        meshId: mesh.id,
        memberId: sender.id,
        nodeId: "node-a",
        connectionId: `${mesh.id}-c${i}`,
        disconnectedAt: i % 10 === 0 ? new Date() : null,
      })),
    });
    const ciphertext = randomBytes(200);
    await db.messageEnvelope.createMany({
      data: Array.from({ length: STREAM_LIMITS.envelopes + extra }, (_, i) => ({
        meshId: mesh.id,
        senderMemberId: sender.id,
        targetSpec: { kind: "mesh" },
        byteSize: ciphertext.length,
        ciphertext,
        createdAt: new Date(Date.now() - (100 - i) * 1000),
        expiresAt: new Date(Date.now() + 3_600_000),
      })),
    });
    await db.auditEvent.createMany({
      data: Array.from({ length: STREAM_LIMITS.auditEvents + extra }, () => ({ meshId: mesh.id, eventType: "message_sent" as const })),
    });

    const stream = await as(owner).my.stream({ meshId: mesh.id });
    expect(stream.presences).toHaveLength(STREAM_LIMITS.presences);
    expect(stream.presences.every((p) => p.displayName === "Owner")).toBe(true);
    expect(stream.envelopes).toHaveLength(STREAM_LIMITS.envelopes);
    const newest = stream.envelopes[0];
    expect(newest?.createdAt.getTime()).toBeGreaterThan(stream.envelopes[49]?.createdAt.getTime() ?? Infinity);
    expect(newest).toMatchObject({ byteSize: 200, priority: "normal", deliveredAt: null, sender: { displayName: "Owner" }, targetSpec: { kind: "mesh" } });
    expect(newest?.ciphertextPreview).toBe(ciphertext.toString("base64").slice(0, 24));
    expect(newest).not.toHaveProperty("ciphertext");
    expect(stream.auditEvents).toHaveLength(STREAM_LIMITS.auditEvents);
  });

  it("follows the visibility rule of the detail", async () => {
    const [owner, stranger, gone] = [await makeUser(db), await makeUser(db), await makeUser(db)];
    const mesh = await makeMesh(db, owner);
    await addMember(db, mesh.id, gone, { revoked: true });
    await expect(as(stranger).my.stream({ meshId: mesh.id })).rejects.toThrow("mesh_not_found");
    await expect(as(gone).my.stream({ meshId: mesh.id })).rejects.toThrow("mesh_not_found");
  });
});

describe("my.export", () => {
  it("has the five sections, audit rows of owned meshes only, at most 5000", async () => {
    const [me, other] = [await makeUser(db), await makeUser(db)];
    const mine = await makeMesh(db, me, "Mine");
    const theirs = await makeMesh(db, other, "Theirs");
    await addMember(db, theirs.id, me);
    await db.auditEvent.createMany({
      data: Array.from({ length: EXPORT_AUDIT_LIMIT + 10 }, () => ({ meshId: mine.id, eventType: "message_sent" as const })),
    });
    await db.auditEvent.createMany({ data: [{ meshId: theirs.id, eventType: "message_sent" }] });
    await as(me).my.createInvite({ meshId: mine.id });

    const bundle = await as(me).my.export();
    expect(Object.keys(bundle).sort()).toEqual(["auditEvents", "exportedAt", "invitesIssued", "meshesJoined", "meshesOwned", "profile"]);
    expect(bundle.profile.id).toBe(me.id);
    expect(bundle.meshesOwned.map((m) => m.id)).toEqual([mine.id]);
    expect(bundle.meshesJoined.map((m) => m.id)).toEqual([theirs.id]);
    expect(bundle.invitesIssued).toHaveLength(1);
    expect(bundle.auditEvents).toHaveLength(EXPORT_AUDIT_LIMIT);
    expect(bundle.auditEvents.every((a) => a.meshId === mine.id)).toBe(true);
    expect(JSON.stringify(bundle)).not.toMatch(/token|SecretKey|rootKey|passwordHash/);
  });
});
