import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { EXPORT_AUDIT_LIMIT } from "@/server/services/export/export-my-data";
import { STREAM_LIMITS } from "@/server/services/meshes/get-stream";
import { setMemberStatus } from "@/server/services/broker/peer-connection";
import { serviceContext } from "@/server/services/context";
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
      data: Array.from({ length: STREAM_LIMITS.auditEvents + extra }, () => ({
        meshId: mesh.id,
        eventType: "message_sent" as const,
      })),
    });

    const stream = await as(owner).my.stream({ meshId: mesh.id });
    expect(stream.presences).toHaveLength(STREAM_LIMITS.presences);
    expect(stream.presences.every((p) => p.displayName === "Owner")).toBe(true);
    expect(stream.envelopes).toHaveLength(STREAM_LIMITS.envelopes);
    const newest = stream.envelopes[0];
    expect(newest?.createdAt.getTime()).toBeGreaterThan(stream.envelopes[49]?.createdAt.getTime() ?? Infinity);
    expect(newest).toMatchObject({
      byteSize: 200,
      priority: "normal",
      deliveredAt: null,
      sender: { displayName: "Owner" },
      targetSpec: { kind: "mesh" },
    });
    // A delivered one shows when (its row in message_deliveries).
    const deliveredAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    await db.messageDelivery.create({ data: { envelopeId: stream.envelopes[1]!.id, deliveredAt } });
    const again = await as(owner).my.stream({ meshId: mesh.id });
    expect(again.envelopes[1]).toMatchObject({ id: stream.envelopes[1]!.id, deliveredAt });
    expect(again.envelopes[0]?.deliveredAt).toBeNull();
    expect(newest?.ciphertextPreview).toBe(ciphertext.toString("base64url").slice(0, 24));
    expect(newest).not.toHaveProperty("ciphertext");
    expect(stream.auditEvents).toHaveLength(STREAM_LIMITS.auditEvents);
  });

  it("previews a ciphertext as the first 24 characters of the base64url text the peer sent", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const sender = await db.member.findFirstOrThrow({ where: { meshId: mesh.id, userId: owner.id } });
    // Bytes whose standard base64 is all `+` and `/`: base64url spells them `-` and `_`.
    const ciphertext = Buffer.concat([Buffer.from("fbefbeffffff".repeat(3), "hex"), randomBytes(40)]);
    const sent = ciphertext.toString("base64url");
    expect(ciphertext.toString("base64").slice(0, 24)).toMatch(/[+/]/);
    await db.messageEnvelope.create({
      data: {
        meshId: mesh.id,
        senderMemberId: sender.id,
        targetSpec: { kind: "mesh" },
        byteSize: ciphertext.length,
        ciphertext,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    const [envelope] = (await as(owner).my.stream({ meshId: mesh.id })).envelopes;
    expect(envelope?.ciphertextPreview).toHaveLength(24);
    expect(envelope?.ciphertextPreview).not.toMatch(/[+/=]/);
    expect(sent.startsWith(envelope?.ciphertextPreview ?? "?")).toBe(true);
  });

  it("lists every live member with presence, status and device, and names the actor and target of each event", async () => {
    const [owner, ana] = [await makeUser(db, { name: "Olga Owner" }), await makeUser(db, { name: "Ana Person" })];
    const mesh = await makeMesh(db, owner);
    const ownerMember = await db.member.findFirstOrThrow({ where: { meshId: mesh.id, userId: owner.id } });
    const { token } = await as(owner).my.createInvite({ meshId: mesh.id });
    await as(ana).my.joinMesh({ token, displayName: "Ana" });
    const anaInBrowser = await db.member.findFirstOrThrow({ where: { meshId: mesh.id, userId: ana.id } });
    const laptop = await db.member.create({
      data: { meshId: mesh.id, userId: ana.id, displayName: "ana-laptop", peerPubkey: `k-${mesh.id}-1` },
    });
    const stranger = await db.member.create({
      data: { meshId: mesh.id, displayName: "cli-peer", peerPubkey: `k-${mesh.id}-2` },
    });
    const gone = await db.member.create({
      data: { meshId: mesh.id, displayName: "gone", peerPubkey: `k-${mesh.id}-3`, revokedAt: new Date() },
    });
    const since = new Date(Date.now() - 60_000);
    const lastSeen = new Date(Date.now() - 3_600_000);
    await db.presence.createMany({
      data: [
        { meshId: mesh.id, memberId: laptop.id, nodeId: "n", connectionId: `${mesh.id}-a`, connectedAt: since },
        { meshId: mesh.id, memberId: laptop.id, nodeId: "n", connectionId: `${mesh.id}-b`, connectedAt: new Date() },
        {
          meshId: mesh.id,
          memberId: ownerMember.id,
          nodeId: "n",
          connectionId: `${mesh.id}-c`,
          connectedAt: lastSeen,
          lastSeenAt: lastSeen,
          disconnectedAt: lastSeen,
        },
        { meshId: mesh.id, memberId: gone.id, nodeId: "n", connectionId: `${mesh.id}-d` },
      ],
    });
    await setMemberStatus(serviceContext({ kind: "peer", meshId: mesh.id, memberId: laptop.id }, { db }), {
      status: "working",
      text: "on the parser",
    });
    await as(owner).my.changeMemberRole({ meshId: mesh.id, memberId: anaInBrowser.id, role: "observer" });
    await as(owner).my.removeMember({ meshId: mesh.id, memberId: stranger.id });

    const stream = await as(ana).my.stream({ meshId: mesh.id });
    expect(stream.membersTotal).toBe(3);
    // Online first; then by last seen (the owner an hour ago), then the never-connected browser member.
    expect(stream.members.map((m) => m.displayName)).toEqual(["ana-laptop", "Olga Owner", "Ana"]);
    const [online, ownerRow, browser] = stream.members;
    expect(online).toMatchObject({
      userName: "Ana Person",
      device: true,
      online: true,
      status: "working",
      statusText: "on the parser",
      role: "member",
    });
    expect(online?.onlineSince?.getTime()).toBe(since.getTime());
    expect(online?.statusAt).toBeInstanceOf(Date);
    expect(ownerRow).toMatchObject({ device: false, online: false, role: "owner", status: null });
    expect(ownerRow?.lastSeenAt?.getTime()).toBe(lastSeen.getTime());
    expect(browser).toMatchObject({
      userName: "Ana Person",
      device: false,
      online: false,
      onlineSince: null,
      lastSeenAt: null,
      role: "observer",
    });

    const byType = new Map(stream.auditEvents.map((a) => [a.eventType, a]));
    expect(byType.get("member_removed")).toMatchObject({ actorName: "Olga Owner", targetName: "cli-peer" });
    expect(byType.get("role_changed")).toMatchObject({
      actorName: "Olga Owner",
      targetName: "Ana",
      metadata: { from: "member", to: "observer" },
    });
    expect(byType.get("status_changed")).toMatchObject({
      actorName: "ana-laptop",
      targetName: null,
      metadata: { status: "working" },
    });
    expect(byType.get("member_joined")).toMatchObject({ actorName: "Ana", metadata: { via: "web" } });
    expect(byType.get("mesh_created")).toMatchObject({ actorName: "Olga Owner" });
  });

  it("holds at most 200 members, and counts them all", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    await db.member.createMany({
      data: Array.from({ length: STREAM_LIMITS.members + 10 }, (_, i) => ({
        meshId: mesh.id,
        displayName: `p${i}`,
        peerPubkey: `k-${mesh.id}-${i}`,
      })),
    });
    const stream = await as(owner).my.stream({ meshId: mesh.id });
    expect(stream.members).toHaveLength(STREAM_LIMITS.members);
    expect(stream.membersTotal).toBe(STREAM_LIMITS.members + 11);
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
      data: Array.from({ length: EXPORT_AUDIT_LIMIT + 10 }, () => ({
        meshId: mine.id,
        eventType: "message_sent" as const,
      })),
    });
    await db.auditEvent.createMany({ data: [{ meshId: theirs.id, eventType: "message_sent" }] });
    await as(me).my.createInvite({ meshId: mine.id });

    const bundle = await as(me).my.export();
    expect(Object.keys(bundle).sort()).toEqual([
      "auditEvents",
      "exportedAt",
      "invitesIssued",
      "meshesJoined",
      "meshesOwned",
      "profile",
    ]);
    expect(bundle.profile.id).toBe(me.id);
    expect(bundle.meshesOwned.map((m) => m.id)).toEqual([mine.id]);
    expect(bundle.meshesJoined.map((m) => m.id)).toEqual([theirs.id]);
    expect(bundle.invitesIssued).toHaveLength(1);
    expect(bundle.auditEvents).toHaveLength(EXPORT_AUDIT_LIMIT);
    expect(bundle.auditEvents.every((a) => a.meshId === mine.id)).toBe(true);
    expect(JSON.stringify(bundle)).not.toMatch(/token|SecretKey|rootKey|passwordHash/);
  });
});
