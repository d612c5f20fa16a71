// Issue 18, point 1: a signed-in user joins in the browser (POST /api/my/join) with the checks, use cap
// and audit of the broker's /join; the mesh is then theirs to list, export and leave.
import nacl from "tweetnacl";
import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { toBase64Url } from "@/server/core/encoding";
import { testDb } from "@/test/helpers";
import { restAs } from "@/test/rest";
import { makeMesh, makeUser, refusedInviteTokens, visitorCtx } from "@/test/mesh-fixtures";
import { joinMesh } from "./join-mesh";
import { ZJoinInput } from "./join-mesh.schema";

const db = testDb();
afterAll(() => db.$disconnect());
const as = (user: SessionUser) => createCaller(createContext({ user, db }));
const peerKey = () => toBase64Url(nacl.sign.keyPair().publicKey);

const rest = (user: SessionUser | null, method: string, path: string, body?: unknown) =>
  restAs(db, user, method, path, body);

describe("joining in the browser", () => {
  it("joins with the user's name, counts one use, writes member_joined, and the mesh is listed, exported and left", async () => {
    const owner = await makeUser(db);
    const user = await makeUser(db, { name: "Dana Browser" });
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, role: "observer", maxUses: 3 });

    const joined = await rest(user, "POST", "/my/join", { token: invite.token });
    expect(joined.status).toBe(200);
    expect(joined.json).toMatchObject({
      meshId: mesh.id,
      role: "observer",
      displayName: "Dana Browser",
      rejoined: false,
    });
    const again = await rest(user, "POST", "/my/join", { token: invite.token, displayName: "Other" });
    expect(again.json).toMatchObject({ memberId: joined.json.memberId, rejoined: true, displayName: "Dana Browser" });
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(1);
    expect(await db.member.findUniqueOrThrow({ where: { id: String(joined.json.memberId) } })).toMatchObject({
      userId: user.id,
      peerPubkey: null,
      role: "observer",
      inviteId: invite.inviteId,
    });
    expect(
      await db.auditEvent.findFirst({ where: { meshId: mesh.id, eventType: "member_joined", actorUserId: user.id } }),
    ).toMatchObject({ actorMemberId: joined.json.memberId });

    // The owner's view: the person, their browser membership, not seen online yet.
    const detail = await as(owner).my.mesh({ meshId: mesh.id });
    expect(detail.members.find((m) => m.id === joined.json.memberId)).toMatchObject({
      userId: user.id,
      userName: "Dana Browser",
      peerPubkey: null,
      online: false,
      lastSeenAt: null,
      role: "observer",
    });
    const list = await rest(user, "GET", "/my/meshes");
    expect(list.json.items).toEqual([
      expect.objectContaining({ id: mesh.id, myRole: "observer", isOwner: false, memberCount: 2 }),
    ]);
    const bundle = await as(user).my.export();
    expect(bundle.meshesJoined).toEqual([
      expect.objectContaining({
        id: mesh.id,
        membership: expect.objectContaining({ role: "observer", revokedAt: null }),
        devices: [],
      }),
    ]);

    const left = await rest(user, "POST", `/my/meshes/${mesh.id}/leave`);
    expect(left.json).toMatchObject({ meshId: mesh.id, members: 1 });
    expect((await rest(user, "GET", "/my/meshes")).json.items).toEqual([]);
    expect((await as(user).my.export()).meshesJoined[0]?.membership.revokedAt).toBeInstanceOf(Date);
    // Joining again brings the same member back and counts a use.
    const back = await rest(user, "POST", "/my/join", { token: invite.token, displayName: "Dana again" });
    expect(back.json).toMatchObject({ memberId: joined.json.memberId, rejoined: false, displayName: "Dana again" });
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(2);
  });

  it("answers each refusal with its reason and status, and joins nobody", async () => {
    const owner = await makeUser(db);
    const user = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const make = async () => (await as(owner).my.createInvite({ meshId: mesh.id })).token;
    const tokens = await refusedInviteTokens(db, owner);
    const cases: [string, string, number][] = [
      [tokens.invite_malformed, "invite_malformed", 400],
      [tokens.invite_bad_signature, "invite_bad_signature", 401],
      [tokens.invite_not_found, "invite_not_found", 404],
      [tokens.invite_expired, "invite_expired", 409],
      [tokens.invite_revoked, "invite_revoked", 409],
      [tokens.invite_exhausted, "invite_exhausted", 409],
      [tokens.mesh_archived, "mesh_archived", 409],
    ];
    for (const [token, reason, status] of cases) {
      const answer = await rest(user, "POST", "/my/join", { token });
      expect([answer.status, answer.json.error?.message], reason).toEqual([status, reason]);
    }
    expect(await db.member.count({ where: { userId: user.id } })).toBe(0);
    expect((await rest(null, "POST", "/my/join", { token: await make() })).status).toBe(401);
    expect((await rest(user, "POST", "/my/join", { token: "" })).status).toBe(400);
    expect((await rest(user, "POST", "/my/join", { token: await make(), displayName: "x".repeat(81) })).status).toBe(
      400,
    );
  });

  it("holds the use cap under concurrent browser and command-line joins", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, maxUses: 7 });
    const users = await Promise.all(Array.from({ length: 15 }, () => makeUser(db)));
    const results = await Promise.all([
      ...users.map((u) =>
        rest(u, "POST", "/my/join", { token: invite.token }).then((r) =>
          r.status === 200 ? "ok" : (r.json.error?.message ?? "?"),
        ),
      ),
      ...Array.from({ length: 15 }, (_, i) =>
        joinMesh(
          visitorCtx(db),
          ZJoinInput.parse({ token: invite.token, peerPubkey: peerKey(), displayName: `cli ${i}` }),
        ).then((r) => (r.ok ? "ok" : r.reason)),
      ),
    ]);
    expect(results.filter((r) => r === "ok")).toHaveLength(7);
    expect(results.filter((r) => r !== "ok").every((r) => r === "invite_exhausted")).toBe(true);
    expect(await db.member.count({ where: { meshId: mesh.id, role: { not: "owner" } } })).toBe(7);
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(7);
  });

  it("one user joining twice at once makes one member and uses one join", async () => {
    const owner = await makeUser(db);
    const user = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, maxUses: 5 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => rest(user, "POST", "/my/join", { token: invite.token })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json.memberId)).size).toBe(1);
    expect(await db.member.count({ where: { meshId: mesh.id, userId: user.id } })).toBe(1);
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(1);
  });
});
