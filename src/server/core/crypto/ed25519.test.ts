import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { ed25519KeyPairFromSeed, ed25519Sign, ed25519Verify, x25519KeyPairFromSecretKey } from "./ed25519";

describe("ed25519 through node:crypto", () => {
  it("makes and checks exactly tweetnacl's signatures", () => {
    for (let i = 0; i < 20; i++) {
      const keys = nacl.sign.keyPair();
      const message = nacl.randomBytes(i * 7);
      const theirs = nacl.sign.detached(message, keys.secretKey);
      expect(Buffer.from(ed25519Sign(message, keys.secretKey))).toEqual(Buffer.from(theirs));
      expect(ed25519Verify(message, theirs, keys.publicKey)).toBe(true);
      expect(nacl.sign.detached.verify(message, ed25519Sign(message, keys.secretKey), keys.publicKey)).toBe(true);
    }
  });

  it("refuses altered messages, signatures, other keys and malformed input without throwing", () => {
    const keys = nacl.sign.keyPair();
    const message = new TextEncoder().encode("hello");
    const sig = ed25519Sign(message, keys.secretKey);
    expect(ed25519Verify(new TextEncoder().encode("hellO"), sig, keys.publicKey)).toBe(false);
    const bad = Uint8Array.from(sig);
    bad[10] = (bad[10] ?? 0) ^ 1;
    expect(ed25519Verify(message, bad, keys.publicKey)).toBe(false);
    expect(ed25519Verify(message, sig, nacl.sign.keyPair().publicKey)).toBe(false);
    expect(ed25519Verify(message, sig.subarray(0, 63), keys.publicKey)).toBe(false);
    expect(ed25519Verify(message, sig, new Uint8Array(31))).toBe(false);
    expect(ed25519Verify(message, new Uint8Array(64), new Uint8Array(32))).toBe(false);
    expect(() => ed25519Sign(message, new Uint8Array(32))).toThrow(TypeError);
  });
});

describe("key pairs through node:crypto", () => {
  it("derive exactly tweetnacl's key pairs", () => {
    for (let i = 0; i < 20; i++) {
      const seed = nacl.randomBytes(32);
      const theirs = nacl.sign.keyPair.fromSeed(seed);
      const ours = ed25519KeyPairFromSeed(seed);
      expect(Buffer.from(ours.publicKey)).toEqual(Buffer.from(theirs.publicKey));
      expect(Buffer.from(ours.secretKey)).toEqual(Buffer.from(theirs.secretKey));
      const box = nacl.randomBytes(32);
      expect(Buffer.from(x25519KeyPairFromSecretKey(box).publicKey)).toEqual(
        Buffer.from(nacl.box.keyPair.fromSecretKey(box).publicKey),
      );
    }
    expect(() => ed25519KeyPairFromSeed(new Uint8Array(31))).toThrow(TypeError);
    expect(() => x25519KeyPairFromSecretKey(new Uint8Array(33))).toThrow(TypeError);
  });
});
