import nacl from "tweetnacl";
import type { z } from "zod";
import { afterAll, describe, expect, it } from "vitest";
import { toBase64Url } from "@/server/core/encoding";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { makeMesh, makeUser, refusedInviteTokens, visitorCtx } from "@/test/mesh-fixtures";
import { testDb } from "@/test/helpers";
import { joinMesh } from "./join-mesh";
import { ZJoinInput } from "./join-mesh.schema";

const db = testDb();
afterAll(() => db.$disconnect());
/** A join as the broker's `/join` makes it: the body parsed at the edge, the visitor's context. */
const join = (body: z.input<typeof ZJoinInput>) => joinMesh(visitorCtx(db), ZJoinInput.parse(body));
const as = (user: SessionUser) => createCaller(createContext({ user, db }));
const peerKey = () => toBase64Url(nacl.sign.keyPair().publicKey);

describe("joinMesh", () => {
  it("adds the peer with its public key only, counts one use and writes member_joined", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, role: "observer", maxUses: 3 });
    const pubkey = peerKey();
    const joined = await join({ token: invite.token, peerPubkey: pubkey, displayName: "Laptop" });
    expect(joined).toMatchObject({ ok: true, meshId: mesh.id, role: "observer", rejoined: false });
    const again = await join({ token: invite.token, peerPubkey: pubkey, displayName: "Laptop" });
    expect(again).toMatchObject({ ok: true, rejoined: true });
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(1);
    const member = await db.member.findFirstOrThrow({ where: { meshId: mesh.id, peerPubkey: pubkey } });
    expect(member).toMatchObject({ displayName: "Laptop", role: "observer", userId: null, revokedAt: null });
    expect(await db.auditEvent.count({ where: { meshId: mesh.id, eventType: "member_joined" } })).toBe(1);
  });

  it("holds the use cap under a race: 50 concurrent joins on a cap of 5 make exactly 5 members", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, maxUses: 5 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        join({ token: invite.token, peerPubkey: peerKey(), displayName: `peer ${i}` }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "invite_exhausted")).toBe(true);
    expect(await db.member.count({ where: { meshId: mesh.id, peerPubkey: { not: null } } })).toBe(5);
    expect((await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } })).usedCount).toBe(5);
  });

  it("refuses with its own reason code for each failure", async () => {
    const tokens = await refusedInviteTokens(db, await makeUser(db));
    const cases: [string, string][] = [
      [tokens.invite_malformed, "invite_malformed"],
      [tokens.invite_bad_signature, "invite_bad_signature"],
      [tokens.invite_not_found, "invite_not_found"],
      [tokens.invite_expired, "invite_expired"],
      [tokens.invite_revoked, "invite_revoked"],
      [tokens.invite_exhausted, "invite_exhausted"],
      [tokens.mesh_archived, "mesh_archived"],
    ];
    for (const [token, reason] of cases) {
      expect(await join({ token, peerPubkey: peerKey(), displayName: "x" }), reason).toEqual({
        ok: false,
        reason,
      });
    }
  });
});
