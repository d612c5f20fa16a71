import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { utf8 } from "../../src/server/core/encoding";
import { EpochKeyRing, MAX_EPOCH_KEYS, type TEpochKey } from "./epoch-keys";
import { deriveMeshKey, epochKeyId, epochOf, openCiphertext, sealForEpoch } from "./mesh-crypto";

const me = {
  memberId: "01a20b0f-3895-7310-86c6-bca566b481df",
  boxSecretKey: nacl.box.keyPair().secretKey,
  meshKey: deriveMeshKey(nacl.randomBytes(32)),
};

describe("whole-mesh format 0x03 (key epochs)", () => {
  it("carries the epoch and key id in clear and opens only with that key", () => {
    const key = nacl.randomBytes(32);
    const sealed = sealForEpoch(utf8("hello"), 7, key);
    expect(epochOf(sealed)).toEqual({ epoch: 7, keyId: epochKeyId(key) });
    const ring = new EpochKeyRing();
    expect(openCiphertext(sealed, { ...me, epochKey: (e, id) => ring.get(e, id) })).toEqual({
      ok: false,
      reason: "no_epoch_key",
    });
    ring.add(7, key);
    const opened = openCiphertext(sealed, { ...me, epochKey: (e, id) => ring.get(e, id) });
    expect(opened.ok && Buffer.from(opened.plaintext).toString()).toBe("hello");
    // The mesh key of the invite (all an old member has) does not open it; a flipped byte does not either.
    expect(openCiphertext(sealed, me).ok).toBe(false);
    const bytes = Buffer.from(sealed, "base64url");
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(openCiphertext(bytes.toString("base64url"), { ...me, epochKey: (e, id) => ring.get(e, id) })).toEqual({
      ok: false,
      reason: "tampered",
    });
    expect(() => sealForEpoch(utf8("x"), 0, key)).toThrow(RangeError);
  });
});

describe("EpochKeyRing", () => {
  it("keeps every key of an epoch and sends under the lowest id, so members settle on one key", () => {
    const ring = new EpochKeyRing();
    const a = ring.create(3);
    const b = ring.create(3);
    expect(ring.sendingKey(3)?.keyId).toBe([a.keyId, b.keyId].sort()[0]);
    expect(ring.sendingKey(4)).toBeUndefined();
    expect(ring.get(3, a.keyId)).toBeDefined();
    expect(ring.get(3, b.keyId)).toBeDefined();
  });

  it("keeps at most MAX_EPOCH_KEYS, dropping the oldest epochs, and saves on every change", () => {
    const saved: TEpochKey[][] = [];
    const ring = new EpochKeyRing({ load: () => [], save: (k) => saved.push([...k]) });
    for (let epoch = 1; epoch <= MAX_EPOCH_KEYS + 5; epoch++) ring.create(epoch);
    expect(ring.size).toBe(MAX_EPOCH_KEYS);
    expect(ring.sendingKey(1)).toBeUndefined();
    expect(ring.sendingKey(MAX_EPOCH_KEYS + 5)).toBeDefined();
    expect(saved.length).toBe(MAX_EPOCH_KEYS + 5);
  });

  it("loads only entries whose id matches their key", () => {
    const good = new EpochKeyRing().create(2);
    const forged = { ...new EpochKeyRing().create(2), keyId: "0000000000000000" };
    const ring = new EpochKeyRing({
      load: () => [good, forged, { epoch: -1 } as unknown as TEpochKey],
      save: () => {},
    });
    expect(ring.size).toBe(1);
    expect(ring.sendingKey(2)?.keyId).toBe(good.keyId);
  });
});
