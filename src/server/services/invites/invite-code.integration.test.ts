// Short invite links (issue 21, point 7; docs/invites.md, "Short links"): a code stands for its
// invite's token while the invite is usable, every other code gets one same refusal, the mesh's usable
// invites are listed with their links for its owner and admins only, and lookups are rate limited.
import http from "node:http";
import type { AddressInfo } from "node:net";
import nacl from "tweetnacl";
import { afterAll, describe, expect, it } from "vitest";
import { handleRest } from "@/server/api/openapi/rest-handler";
import { createCaller } from "@/server/api/root";
import { createContext, type SessionUser } from "@/server/api/trpc";
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "@/server/core/client-address";
import { toBase64Url } from "@/server/core/encoding";
import { joinMesh } from "@/server/services/join/join-mesh";
import { ZJoinInput } from "@/server/services/join/join-mesh.schema";
import { archiveMesh } from "@/server/services/meshes/archive-mesh";
import { testDb } from "@/test/helpers";
import { addMember, ctxOf, makeMesh, makeUser, visitorCtx } from "@/test/mesh-fixtures";
import { revokeInvite } from "./revoke-invite";

const db = testDb();
afterAll(() => db.$disconnect());

// Each test looks codes up from an address of its own, so the per-address limit is the loopback test's alone.
let next = 1;
const as = (user: SessionUser | null, address = `198.51.100.${next++}`) =>
  createCaller(createContext({ user, db, headers: new Headers({ [CLIENT_ADDRESS_HEADER]: address }) }));
const codeOf = (shortUrl: string) => new URL(shortUrl).pathname.split("/").pop() ?? "";

/** What a code lookup answers through the REST handler: status and body. */
async function restLookup(code: unknown, address: string) {
  const req = new Request("http://test/api/public/invite-code", {
    method: "POST",
    headers: { "content-type": "application/json", [CLIENT_ADDRESS_HEADER]: address },
    body: JSON.stringify({ code }),
  });
  const res = await handleRest(req, () => createContext({ user: null, db, headers: req.headers }));
  return { status: res.status, body: await res.text(), cache: res.headers.get("cache-control") };
}

describe("short invite codes", () => {
  it("resolve to their invite's token while it is valid (in any letter case), at https://<host>/join/<code>", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const invite = await as(owner).my.createInvite({ meshId: mesh.id, role: "observer" });
    expect(invite.shortUrl).toMatch(/^https:\/\/mesh\.example\.test\/join\/[a-z2-7]{16}$/);
    const code = codeOf(invite.shortUrl);
    // Never stored in clear: a SHA-256 to look it up, and sealed to show it again.
    const row = await db.invite.findUniqueOrThrow({ where: { id: invite.inviteId } });
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.shortCodeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.shortCodeEnc).toMatch(/^v1\.ktest\./);

    expect(await as(null).public.resolveInviteCode({ code })).toEqual({
      token: invite.token,
      inviteLink: invite.inviteLink,
      joinUrl: invite.joinUrl,
    });
    expect((await as(null).public.resolveInviteCode({ code: code.toUpperCase() })).token).toBe(invite.token);
    const rest = await restLookup(code, "198.51.100.200");
    expect(rest.status).toBe(200);
    expect(JSON.parse(rest.body)).toMatchObject({ token: invite.token });
    expect(rest.cache).toMatch(/\bno-store\b/);
  });

  it("answer expired, revoked, used-up, archived, unknown and malformed codes all the same way", async () => {
    const owner = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    const make = (maxUses: number | null = null) => as(owner).my.createInvite({ meshId: mesh.id, maxUses });
    const expired = await make();
    await db.invite.update({ where: { id: expired.inviteId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const revoked = await make();
    await revokeInvite(ctxOf(db, owner), { inviteId: revoked.inviteId });
    const usedUp = await make(1);
    expect(
      await joinMesh(
        visitorCtx(db),
        ZJoinInput.parse({
          token: usedUp.token,
          peerPubkey: toBase64Url(nacl.sign.keyPair().publicKey),
          displayName: "first",
        }),
      ),
    ).toMatchObject({ ok: true });
    const archivedMesh = await makeMesh(db, owner);
    const onArchived = await as(owner).my.createInvite({ meshId: archivedMesh.id });
    await archiveMesh(ctxOf(db, owner), { meshId: archivedMesh.id });

    const codes = [
      ...[expired, revoked, usedUp, onArchived].map((i) => codeOf(i.shortUrl)),
      "aaaaaaaaaaaaaaaa",
      "not-a-code",
      "",
      "eyJ2IjoxfQ",
      "a".repeat(64),
    ];
    const answers = [];
    for (const code of codes) {
      await expect(as(null).public.resolveInviteCode({ code }), code).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "invite_not_found",
      });
      answers.push(await restLookup(code, "198.51.100.201"));
    }
    // One status, one body, one caching rule: nothing tells an expired code from one never issued.
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({
      status: 404,
      body: '{"error":{"code":"NOT_FOUND","message":"invite_not_found"}}',
      cache: expect.stringMatching(/\bno-store\b/),
    });
    // Beyond any code's length the input itself is refused (400), never a 500.
    expect((await restLookup("a".repeat(65), "198.51.100.201")).status).toBe(400);
    expect((await restLookup(42, "198.51.100.201")).status).toBe(400);
  });
});

describe("the mesh's usable invites with their links", () => {
  it("are the owner's to see, a mesh admin's own, and nobody else's", async () => {
    const owner = await makeUser(db, { name: "Olive Owner" });
    const admin = await makeUser(db, { name: "Adam Admin" });
    const member = await makeUser(db);
    const stranger = await makeUser(db);
    const mesh = await makeMesh(db, owner);
    await addMember(db, mesh.id, admin, { role: "admin" });
    await addMember(db, mesh.id, member, { role: "member" });
    const byOwner = await as(owner).my.createInvite({ meshId: mesh.id, role: "admin", maxUses: 3 });
    const byAdmin = await as(admin).my.createInvite({ meshId: mesh.id });
    const revoked = await as(owner).my.createInvite({ meshId: mesh.id });
    await as(owner).my.revokeInvite({ inviteId: revoked.inviteId });
    const expired = await as(owner).my.createInvite({ meshId: mesh.id });
    await db.invite.update({ where: { id: expired.inviteId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const usedUp = await as(owner).my.createInvite({ meshId: mesh.id, maxUses: 1 });
    await db.invite.update({ where: { id: usedUp.inviteId }, data: { usedCount: 1 } });

    const ownerView = await as(owner).my.meshInvites({ meshId: mesh.id });
    expect(ownerView.more).toBe(false);
    expect(ownerView.items.map((i) => i.id)).toEqual([byAdmin.inviteId, byOwner.inviteId]);
    expect(ownerView.items[1]).toMatchObject({
      role: "admin",
      maxUses: 3,
      usedCount: 0,
      createdBy: { id: owner.id, name: "Olive Owner" },
      shortUrl: byOwner.shortUrl,
      joinUrl: byOwner.joinUrl,
    });
    expect(ownerView.items[0]).toMatchObject({ createdBy: { name: "Adam Admin" }, shortUrl: byAdmin.shortUrl });

    expect((await as(admin).my.meshInvites({ meshId: mesh.id })).items.map((i) => i.id)).toEqual([byAdmin.inviteId]);
    for (const who of [member, stranger]) {
      const view = await as(who).my.meshInvites({ meshId: mesh.id });
      expect(view.items).toEqual([]);
      expect(JSON.stringify(view)).not.toContain(codeOf(byOwner.shortUrl));
    }
    // An admin who is demoted (or leaves) no longer sees even their own.
    await db.member.updateMany({ where: { meshId: mesh.id, userId: admin.id }, data: { role: "member" } });
    expect((await as(admin).my.meshInvites({ meshId: mesh.id })).items).toEqual([]);
    // Nor the owner: an invite whose issuer can no longer invite admits no one (issue 41), nor does its code resolve.
    expect((await as(owner).my.meshInvites({ meshId: mesh.id })).items.map((i) => i.id)).toEqual([byOwner.inviteId]);
    await expect(as(null).public.resolveInviteCode({ code: codeOf(byAdmin.shortUrl) })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // Revoked from the list: gone from it, and its code no longer resolves.
    await as(owner).my.revokeInvite({ inviteId: byOwner.inviteId });
    expect((await as(owner).my.meshInvites({ meshId: mesh.id })).items).toEqual([]);
    await expect(as(null).public.resolveInviteCode({ code: codeOf(byOwner.shortUrl) })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // An archived mesh has no usable invites.
    await archiveMesh(ctxOf(db, owner), { meshId: mesh.id });
    expect((await as(owner).my.meshInvites({ meshId: mesh.id })).items).toEqual([]);
    await expect(as(null).my.meshInvites({ meshId: mesh.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("code lookups over loopback", () => {
  it("answer 429 with Retry-After once an address has made its 30 lookups a minute, even for a valid code", async () => {
    const owner = await makeUser(db);
    const invite = await as(owner).my.createInvite({ meshId: (await makeMesh(db, owner)).id });
    // A web server as src/web/server.ts is: the client's address from the socket, then the REST handler.
    const server = http.createServer((req, res) => {
      req.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(req.socket.remoteAddress, undefined, { kind: "none" });
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        });
        void handleRest(request, () => createContext({ user: null, db, headers: request.headers })).then(
          async (answer) => {
            res.writeHead(answer.status, Object.fromEntries(answer.headers));
            res.end(Buffer.from(await answer.arrayBuffer()));
          },
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/invite-code`;
    const lookup = (code: string) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code }) });
    try {
      expect((await lookup(codeOf(invite.shortUrl))).status).toBe(200);
      for (let i = 1; i < 30; i++) expect((await lookup("aaaaaaaaaaaaaaaa")).status).toBe(404);
      const limited = await lookup(codeOf(invite.shortUrl));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await limited.json()).toMatchObject({ error: { code: "TOO_MANY_REQUESTS", message: "rate_limited" } });
      // Another address is not affected.
      expect((await as(null, "203.0.113.9").public.resolveInviteCode({ code: codeOf(invite.shortUrl) })).token).toBe(
        invite.token,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
