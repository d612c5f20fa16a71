import { createHash, randomUUID } from "node:crypto";
import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url, utf8 } from "../../src/server/core/encoding";
import {
  decodePlaintext,
  deriveMeshKey,
  encodeTextPlaintext,
  FORMAT_DIRECT,
  FORMAT_MESH,
  openCiphertext,
  sealDirect,
  sealForMesh,
  uuidBytes,
} from "./mesh-crypto";

const rootKey = nacl.randomBytes(32);
const meshKey = deriveMeshKey(rootKey);

function peer() {
  const box = nacl.box.keyPair();
  return { memberId: randomUUID(), box, boxPubkey: toBase64Url(box.publicKey) };
}

/** Every single-byte change of a ciphertext. */
function* flips(ciphertext: string): Generator<[number, string]> {
  const bytes = fromBase64Url(ciphertext);
  for (let i = 0; i < bytes.length; i++) {
    const copy = bytes.slice();
    copy[i] = (copy[i] ?? 0) ^ 0x01;
    yield [i, toBase64Url(copy)];
  }
}

describe("mesh key", () => {
  it("is the first 32 bytes of SHA-512('ic-mesh-key-v1' ‖ root key), checked with node:crypto", () => {
    const expected = createHash("sha512").update("ic-mesh-key-v1").update(rootKey).digest().subarray(0, 32);
    expect(Buffer.from(meshKey).equals(expected)).toBe(true);
    expect(deriveMeshKey(nacl.randomBytes(32))).not.toEqual(meshKey);
    expect(() => deriveMeshKey(new Uint8Array(31))).toThrow(TypeError);
  });
});

describe("whole-mesh format 0x01", () => {
  const me = peer();
  const keys = { meshKey, memberId: me.memberId, boxSecretKey: me.box.secretKey };

  it("round-trips with a fresh nonce each time and has the documented layout", () => {
    const plaintext = encodeTextPlaintext("hello mesh ✓", new Date("2026-11-22T08:00:00Z"));
    const a = sealForMesh(plaintext, meshKey);
    const b = sealForMesh(plaintext, meshKey);
    expect(a).not.toBe(b);
    const bytes = fromBase64Url(a);
    expect(bytes[0]).toBe(FORMAT_MESH);
    expect(bytes.length).toBe(1 + 24 + 16 + plaintext.length);
    expect(nacl.secretbox.open(bytes.subarray(25), bytes.subarray(1, 25), meshKey)).toEqual(plaintext);
    const opened = openCiphertext(a, keys);
    expect(opened).toEqual({ ok: true, plaintext, direct: false });
    if (opened.ok)
      expect(decodePlaintext(opened.plaintext)).toEqual({
        kind: "text",
        value: { kind: "text", text: "hello mesh ✓", sentAt: "2026-11-22T08:00:00.000Z" },
      });
  });

  it("detects every altered byte and another mesh's key", () => {
    const sealed = sealForMesh(utf8("secret"), meshKey);
    for (const [i, altered] of flips(sealed)) {
      const opened = openCiphertext(altered, keys);
      expect(opened.ok, `byte ${i}`).toBe(false);
    }
    expect(openCiphertext(sealed, { ...keys, meshKey: deriveMeshKey(nacl.randomBytes(32)) })).toEqual({
      ok: false,
      reason: "tampered",
    });
    expect(openCiphertext(toBase64Url(fromBase64Url(sealed).subarray(0, 30)), keys)).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(openCiphertext("not base64url!", keys)).toEqual({ ok: false, reason: "malformed" });
    expect(openCiphertext(toBase64Url(Uint8Array.of(7, 1, 2, 3)), keys)).toEqual({ ok: false, reason: "malformed" });
  });
});

describe("direct format 0x02", () => {
  const sender = peer();
  const alice = peer();
  const bob = peer();
  const carol = peer();
  const keysOf = (p: ReturnType<typeof peer>) => ({
    meshKey,
    memberId: p.memberId,
    boxSecretKey: p.box.secretKey,
    senderBoxPubkey: sender.boxPubkey,
  });

  it("lets each named recipient, and only them, read it, and has the documented layout", () => {
    const plaintext = utf8('{"kind":"text","text":"for alice and bob","sentAt":"2026-11-22T08:00:00.000Z"}');
    const sealed = sealDirect(plaintext, [alice, bob], sender.box.secretKey);
    const bytes = fromBase64Url(sealed);
    expect([bytes[0], bytes[1]]).toEqual([FORMAT_DIRECT, 2]);
    expect(bytes.subarray(2, 18)).toEqual(uuidBytes(alice.memberId));
    expect(bytes.subarray(2 + 88, 2 + 88 + 16)).toEqual(uuidBytes(bob.memberId));
    expect(bytes.length).toBe(2 + 2 * (16 + 24 + 48) + 24 + 16 + plaintext.length);
    expect(openCiphertext(sealed, keysOf(alice))).toEqual({ ok: true, plaintext, direct: true });
    expect(openCiphertext(sealed, keysOf(bob))).toEqual({ ok: true, plaintext, direct: true });
    expect(openCiphertext(sealed, keysOf(carol))).toEqual({ ok: false, reason: "not_for_me" });
    // The mesh key does not open a direct message: a member not named cannot read it.
    expect(openCiphertext(sealed, { ...keysOf(carol), memberId: alice.memberId })).toEqual({
      ok: false,
      reason: "tampered",
    });
  });

  it("needs the real sender's key and detects every altered byte", () => {
    const sealed = sealDirect(utf8("psst"), [alice], sender.box.secretKey);
    expect(openCiphertext(sealed, { ...keysOf(alice), senderBoxPubkey: null })).toEqual({
      ok: false,
      reason: "no_sender_key",
    });
    expect(openCiphertext(sealed, { ...keysOf(alice), senderBoxPubkey: carol.boxPubkey })).toEqual({
      ok: false,
      reason: "tampered",
    });
    for (const [i, altered] of flips(sealed))
      expect(openCiphertext(altered, keysOf(alice)).ok, `byte ${i}`).toBe(false);
    const truncated = toBase64Url(fromBase64Url(sealed).subarray(0, 2 + 88 + 10));
    expect(openCiphertext(truncated, keysOf(alice))).toEqual({ ok: false, reason: "malformed" });
  });

  it("takes 1 to 100 recipients", () => {
    expect(() => sealDirect(utf8("x"), [], sender.box.secretKey)).toThrow(RangeError);
    const many = Array.from({ length: 101 }, () => alice);
    expect(() => sealDirect(utf8("x"), many, sender.box.secretKey)).toThrow(RangeError);
    const hundred = Array.from({ length: 100 }, () => peer());
    const sealed = sealDirect(utf8("to all"), hundred, sender.box.secretKey);
    expect(openCiphertext(sealed, keysOf(hundred[99] as ReturnType<typeof peer>)).ok).toBe(true);
  });
});

describe("plaintext", () => {
  it("tells text, unknown kinds (ignored) and garbage apart", () => {
    expect(decodePlaintext(utf8('{"kind":"file","name":"a"}'))).toEqual({ kind: "other", name: "file" });
    expect(decodePlaintext(utf8('{"kind":"text"}'))).toEqual({ kind: "invalid" });
    expect(decodePlaintext(utf8("nope"))).toEqual({ kind: "invalid" });
    expect(decodePlaintext(Uint8Array.of(0xff, 0xfe))).toEqual({ kind: "invalid" });
  });

  it("writes member ids as their 16 raw bytes", () => {
    expect(toBase64Url(uuidBytes("00112233-4455-6677-8899-aabbccddeeff"))).toBe(
      toBase64Url(Buffer.from("00112233445566778899aabbccddeeff", "hex")),
    );
    expect(() => uuidBytes("not-a-uuid")).toThrow(TypeError);
  });
});
