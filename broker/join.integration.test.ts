import http from "node:http";
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64Url } from "@/server/core/encoding";
import { JOIN_PROOF_MAX_SKEW_MS, signJoinProof } from "@/server/services/join/join-proof";
import { testDb } from "@/test/helpers";
import { refusedInviteTokens } from "@/test/mesh-fixtures";
import { meshWithInvite, startBroker, type TestBroker } from "./test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, { MAX_MESSAGE_BYTES: "1024", JOIN_RATE_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

const peerKey = () => toBase64Url(nacl.sign.keyPair().publicKey);
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${broker.http}/join`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("POST /join", () => {
  it("joins with the peer's public key and answers the mesh, member, role and broker URL", async () => {
    const { mesh, invite } = await meshWithInvite(db);
    const res = await post({ token: invite.token, peerPubkey: peerKey(), displayName: "Laptop" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      meshId: mesh.id,
      meshSlug: mesh.slug,
      role: "member",
      rejoined: false,
      brokerUrl: "wss://broker.example.test",
    });
    const member = await db.member.findUniqueOrThrow({ where: { id: String(body.memberId) } });
    expect(member).toMatchObject({ meshId: mesh.id, displayName: "Laptop", revokedAt: null });
  });

  it("answers each refusal with its reason code and documented status", async () => {
    const tokens = await refusedInviteTokens(db, (await meshWithInvite(db)).owner);
    const cases: [string, string, number][] = [
      [tokens.invite_malformed, "invite_malformed", 400],
      [tokens.invite_bad_signature, "invite_bad_signature", 401],
      [tokens.invite_not_found, "invite_not_found", 404],
      [tokens.invite_expired, "invite_expired", 410],
      [tokens.invite_revoked, "invite_revoked", 410],
      [tokens.invite_exhausted, "invite_exhausted", 410],
      [tokens.mesh_archived, "mesh_archived", 410],
    ];
    for (const [token, code, status] of cases) {
      const res = await post({ token, peerPubkey: peerKey(), displayName: "x" });
      expect(res.status, code).toBe(status);
      expect(await res.json(), code).toEqual({ error: { code, message: expect.any(String) } });
    }
    const metrics = await (await fetch(`${broker.http}/metrics`)).text();
    expect(metrics).toMatch(/^broker_join_results_total\{result="invite_revoked"\} [1-9]/m);
  });

  it("changes a member's box key only with a proof signed by its peer key (a stranger with the public key cannot)", async () => {
    const { invite } = await meshWithInvite(db);
    const victim = nacl.sign.keyPair();
    const victimPeer = toBase64Url(victim.publicKey);
    const victimBox = toBase64Url(nacl.box.keyPair().publicKey);
    const joined = await post({
      token: invite.token,
      peerPubkey: victimPeer,
      boxPubkey: victimBox,
      displayName: "victim",
    });
    expect(joined.status).toBe(200);
    const memberId = String(((await joined.json()) as Record<string, unknown>).memberId);

    // The attacker knows the victim's public peer key (every member sees it) and holds an invite.
    const attackerBox = toBase64Url(nacl.box.keyPair().publicKey);
    const noProof = await post({
      token: invite.token,
      peerPubkey: victimPeer,
      boxPubkey: attackerBox,
      displayName: "victim",
    });
    expect(noProof.status).toBe(401);
    expect(await noProof.json()).toEqual({ error: { code: "key_proof_required", message: expect.any(String) } });
    const forged = signJoinProof({
      token: invite.token,
      peerPubkey: victimPeer,
      boxPubkey: attackerBox,
      secretKey: nacl.sign.keyPair().secretKey,
    });
    const badProof = await post({
      token: invite.token,
      peerPubkey: victimPeer,
      boxPubkey: attackerBox,
      displayName: "victim",
      proof: forged,
    });
    expect(badProof.status).toBe(401);
    expect(await badProof.json()).toMatchObject({ error: { code: "key_proof_invalid" } });
    // A proof of the victim's for its own box key cannot be reused for another key or an old time.
    const ownProof = signJoinProof({
      token: invite.token,
      peerPubkey: victimPeer,
      boxPubkey: victimBox,
      secretKey: victim.secretKey,
    });
    expect(
      (
        await post({
          token: invite.token,
          peerPubkey: victimPeer,
          boxPubkey: attackerBox,
          displayName: "v",
          proof: ownProof,
        })
      ).status,
    ).toBe(401);
    const stale = signJoinProof({
      token: invite.token,
      peerPubkey: victimPeer,
      boxPubkey: attackerBox,
      secretKey: victim.secretKey,
      ts: Date.now() - JOIN_PROOF_MAX_SKEW_MS - 60_000,
    });
    expect(
      (
        await post({
          token: invite.token,
          peerPubkey: victimPeer,
          boxPubkey: attackerBox,
          displayName: "v",
          proof: stale,
        })
      ).status,
    ).toBe(401);
    expect((await db.member.findUniqueOrThrow({ where: { id: memberId } })).boxPubkey).toBe(victimBox);

    // Rejoining with the same box key needs no proof; the holder of the peer key changes it with one.
    expect(
      (await post({ token: invite.token, peerPubkey: victimPeer, boxPubkey: victimBox, displayName: "victim" })).status,
    ).toBe(200);
    const newBox = toBase64Url(nacl.box.keyPair().publicKey);
    const proof = signJoinProof({
      token: invite.token,
      peerPubkey: victimPeer,
      boxPubkey: newBox,
      secretKey: victim.secretKey,
    });
    const rotated = await post({
      token: invite.token,
      peerPubkey: victimPeer,
      boxPubkey: newBox,
      displayName: "victim",
      proof,
    });
    expect(rotated.status).toBe(200);
    expect(await rotated.json()).toMatchObject({ memberId, rejoined: true });
    expect((await db.member.findUniqueOrThrow({ where: { id: memberId } })).boxPubkey).toBe(newBox);
  });

  it("refuses bad JSON and a bad shape with 400 BAD_REQUEST", async () => {
    const notJson = await post("{");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      error: { code: "BAD_REQUEST", details: { issues: [{ path: "", message: "body is not JSON" }] } },
    });
    const badShape = await post({ token: "x", peerPubkey: "not-a-key", displayName: "" });
    expect(badShape.status).toBe(400);
    const body = (await badShape.json()) as {
      error: { code: string; details: { issues: { path: string; message: string }[] } };
    };
    expect(body.error.code).toBe("BAD_REQUEST");
    // docs/protocol.md, "Join": the fields are named in details.issues (no fieldErrors).
    expect(Object.keys(body.error.details)).toEqual(["issues"]);
    expect([...new Set(body.error.details.issues.map((i) => i.path))].sort()).toEqual(["displayName", "peerPubkey"]);
    expect(
      body.error.details.issues.every(
        (i) => Object.keys(i).sort().join() === "message,path" && typeof i.message === "string",
      ),
    ).toBe(true);
    expect((await fetch(`${broker.http}/join`)).status).toBe(405);
  });

  it("answers 413 for a body above MAX_MESSAGE_BYTES, declared or streamed", async () => {
    const big = JSON.stringify({ token: "a".repeat(2000), peerPubkey: peerKey(), displayName: "x" });
    const declared = await post(big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
    // Chunked, without Content-Length: the cap is counted while reading.
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${broker.http}/join`,
        { method: "POST", headers: { "transfer-encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 10; i++) req.write("x".repeat(500));
      req.end();
    });
    expect(streamed).toBe(413);
  });

  it("limits joins per client address with 429 and Retry-After; a spoofed X-Forwarded-For changes nothing", async () => {
    const limited = await startBroker(db, { JOIN_RATE_PER_MINUTE: "2" });
    try {
      const send = (ip: string) =>
        fetch(`${limited.http}/join`, {
          method: "POST",
          headers: { "x-forwarded-for": ip },
          body: JSON.stringify({ token: "%%%", peerPubkey: peerKey(), displayName: "x" }),
        });
      expect((await send("203.0.113.9")).status).toBe(400);
      expect((await send("203.0.113.10")).status).toBe(400);
      // Without TRUST_PROXY the header is the client's own claim: the socket's address is what counts.
      const denied = await send("203.0.113.11");
      expect(denied.status).toBe(429);
      expect(Number(denied.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await denied.json()).toMatchObject({ error: { code: "TOO_MANY_REQUESTS" } });
    } finally {
      await limited.close();
    }
  });

  it("behind a trusted proxy, limits per the hop the proxy saw, whatever the client wrote before it", async () => {
    // This test's own requests stand for a proxy on loopback (TRUST_PROXY=1): the last hop is the client.
    const limited = await startBroker(db, { JOIN_RATE_PER_MINUTE: "2", TRUST_PROXY: "1" });
    try {
      const send = (xff: string) =>
        fetch(`${limited.http}/join`, {
          method: "POST",
          headers: { "x-forwarded-for": xff },
          body: JSON.stringify({ token: "%%%", peerPubkey: peerKey(), displayName: "x" }),
        });
      expect((await send("6.6.6.1, 203.0.113.9")).status).toBe(400);
      expect((await send("6.6.6.2, 203.0.113.9")).status).toBe(400);
      expect((await send("6.6.6.3, 203.0.113.9")).status).toBe(429);
      expect((await send("203.0.113.10")).status).toBe(400);
    } finally {
      await limited.close();
    }
  });
});
