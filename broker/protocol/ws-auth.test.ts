import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/server/core/encoding";
import { NonceCache, parseWsAuth, signWsAuth, verifyWsAuth, wsAuthString } from "./ws-auth";

const meshId = "0190f0e0-0000-7000-8000-000000000001";
const memberId = "0190f0e0-0000-7000-8000-000000000002";
const keys = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(1));
const pub = toBase64Url(keys.publicKey);

describe("ws auth", () => {
  it("signs the canonical string and verifies only for the same mesh, member, time and key", () => {
    const header = signWsAuth({
      meshId,
      memberId,
      secretKey: keys.secretKey,
      ts: 1_700_000_000_000,
      nonce: "AAAAAAAAAAAAAAAAAAAAAA",
    });
    expect(header).toMatch(/^v1\.1700000000000\.AAAAAAAAAAAAAAAAAAAAAA\.[A-Za-z0-9_-]{86}$/);
    expect(wsAuthString({ meshId, memberId, ts: 1, nonce: "n" })).toBe(`ic-ws-v1|${meshId}|${memberId}|1|n`);
    const auth = parseWsAuth(header);
    if (!auth) throw new Error("unparsed");
    expect(verifyWsAuth({ meshId, memberId, auth, peerPubkey: pub })).toBe(true);
    expect(verifyWsAuth({ meshId: memberId, memberId, auth, peerPubkey: pub })).toBe(false);
    expect(verifyWsAuth({ meshId, memberId, auth: { ...auth, ts: auth.ts + 1 }, peerPubkey: pub })).toBe(false);
    expect(verifyWsAuth({ meshId, memberId, auth, peerPubkey: toBase64Url(nacl.sign.keyPair().publicKey) })).toBe(
      false,
    );
    expect(verifyWsAuth({ meshId, memberId, auth, peerPubkey: "short" })).toBe(false);
  });

  it.each([
    undefined,
    "",
    "v2.1.AAAAAAAAAAAAAAAAAAAAAA.x",
    "v1.-1.AAAAAAAAAAAAAAAAAAAAAA.x",
    "v1.1.short.x",
    `v1.1.AAAAAAAAAAAAAAAAAAAAAA.${"A".repeat(86)}.x`,
    "x".repeat(500),
  ])("refuses the malformed header %j", (value) => expect(parseWsAuth(value)).toBeUndefined());

  it("lets a nonce through once while it can still be in the window", () => {
    let now = 0;
    const cache = new NonceCache(60_000, () => now);
    expect(cache.use("m|n")).toBe(true);
    expect(cache.use("m|n")).toBe(false);
    now = 119_999;
    expect(cache.use("m|n")).toBe(false);
    now = 120_001;
    expect(cache.use("m|n")).toBe(true);
  });
});
