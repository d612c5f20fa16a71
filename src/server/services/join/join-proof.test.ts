import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../../core/encoding";
import { JOIN_PROOF_MAX_SKEW_MS, signJoinProof, verifyJoinProof } from "./join-proof";

const keys = nacl.sign.keyPair();
const request = {
  token: "tok",
  peerPubkey: toBase64Url(keys.publicKey),
  boxPubkey: toBase64Url(nacl.box.keyPair().publicKey),
};

describe("join proof", () => {
  it("verifies for the request it was signed over, within 5 minutes either way", () => {
    const now = 1_800_000_000_000;
    const proof = signJoinProof({ ...request, secretKey: keys.secretKey, ts: now });
    expect(verifyJoinProof(proof, request, now)).toBe(true);
    expect(JOIN_PROOF_MAX_SKEW_MS).toBe(300_000);
    expect(verifyJoinProof(proof, request, now + 300_000)).toBe(true);
    expect(verifyJoinProof(proof, request, now - 300_000)).toBe(true);
    expect(verifyJoinProof(proof, request, now + 300_001)).toBe(false);
    expect(verifyJoinProof(proof, { ...request, token: "other" }, now)).toBe(false);
    expect(verifyJoinProof(proof, { ...request, boxPubkey: undefined }, now)).toBe(false);
    expect(verifyJoinProof(proof, { ...request, peerPubkey: toBase64Url(nacl.sign.keyPair().publicKey) }, now)).toBe(
      false,
    );
  });

  it("refuses malformed proofs without throwing", () => {
    for (const bad of [
      "",
      "v1",
      "v1..",
      "v2.1.AAAA",
      "v1.-5.AAAA",
      "v1.1e3.AAAA",
      "v1.1.%%%",
      `v1.${Date.now()}.${"A".repeat(86)}`,
    ]) {
      expect(verifyJoinProof(bad, request), bad).toBe(false);
    }
    expect(
      verifyJoinProof(signJoinProof({ ...request, secretKey: keys.secretKey }), { ...request, peerPubkey: "short" }),
    ).toBe(false);
  });
});
