import { createHash } from "node:crypto";
import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/server/core/encoding";
import {
  digitGroups,
  formatSafetyNumber,
  keyFingerprint,
  markVerified,
  memberFingerprint,
  safetyNumber,
  SafetyNumberKeyError,
  verificationAmong,
  verificationState,
  withMark,
  withoutMark,
  type MemberPublicKeys,
} from "./safety-number";

/** A member's public keys from two seed bytes (real ed25519 and X25519 keys, always the same). */
function keysOf(signByte: number, boxByte: number | null): MemberPublicKeys {
  return {
    peerPubkey: toBase64Url(nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(signByte)).publicKey),
    boxPubkey:
      boxByte === null ? null : toBase64Url(nacl.box.keyPair.fromSecretKey(new Uint8Array(32).fill(boxByte)).publicKey),
  };
}

const ana = keysOf(1, 2);
const bo = keysOf(3, 4);

/** The derivation as docs/protocol.md words it, written again with node:crypto and BigInt. */
function fingerprintByTheDocs(keys: MemberPublicKeys): string {
  const sha512 = (...parts: Uint8Array[]) => new Uint8Array(createHash("sha512").update(Buffer.concat(parts)).digest());
  const keyBytes = Buffer.concat([
    Buffer.from(keys.peerPubkey, "base64url"),
    keys.boxPubkey === null
      ? Buffer.from([0])
      : Buffer.concat([Buffer.from([1]), Buffer.from(keys.boxPubkey, "base64url")]),
  ]);
  let h = sha512(Buffer.from("rm-safety-number-v1"), Buffer.from([0]), keyBytes);
  for (let i = 1; i < 5200; i++) h = sha512(h, keyBytes);
  let digits = "";
  for (;;) {
    for (let at = 0; at + 5 <= 64 && digits.length < 30; at += 5) {
      const chunk = BigInt(`0x${Buffer.from(h.subarray(at, at + 5)).toString("hex")}`);
      if (chunk < (2n ** 40n / 100000n) * 100000n) digits += String(chunk % 100000n).padStart(5, "0");
    }
    if (digits.length === 30) return digits;
    h = sha512(h, keyBytes);
  }
}

describe("safety numbers", () => {
  it("are the same digits whichever member computes them: 60 digits, two sorted 30-digit halves", () => {
    const number = safetyNumber(ana, bo);
    expect(safetyNumber(bo, ana)).toBe(number);
    expect(number).toMatch(/^\d{60}$/);
    const halves = [memberFingerprint(ana), memberFingerprint(bo)].sort();
    expect(number).toBe(halves.join(""));
  });

  it("follow the documented derivation (an independent implementation) and a known vector", () => {
    expect(memberFingerprint(ana)).toBe(fingerprintByTheDocs(ana));
    expect(memberFingerprint(keysOf(5, null))).toBe(fingerprintByTheDocs(keysOf(5, null)));
    // Fixed here so that any change of the derivation (prefix, rounds, digits) fails this test: the
    // browser and every older client must keep computing the same number.
    expect(formatSafetyNumber(safetyNumber(ana, bo))).toBe(KNOWN_VECTOR);
  });

  it("change when any of the four keys changes, and when a box key appears or goes", () => {
    const number = safetyNumber(ana, bo);
    const variants = [
      safetyNumber(keysOf(9, 2), bo),
      safetyNumber(keysOf(1, 9), bo),
      safetyNumber(ana, keysOf(9, 4)),
      safetyNumber(ana, keysOf(3, 9)),
      safetyNumber(keysOf(1, null), bo),
      safetyNumber(ana, keysOf(3, null)),
    ];
    for (const v of variants) expect(v).not.toBe(number);
    expect(new Set(variants).size).toBe(variants.length);
    // Swapping one member's two keys is another member, not the same one.
    const swapped = { peerPubkey: ana.boxPubkey ?? "", boxPubkey: ana.peerPubkey };
    expect(memberFingerprint(swapped)).not.toBe(memberFingerprint(ana));
  });

  it("refuse a key that is not 32 bytes of canonical base64url", () => {
    expect(() => safetyNumber({ peerPubkey: "abc", boxPubkey: null }, bo)).toThrow(SafetyNumberKeyError);
    expect(() => safetyNumber(ana, { peerPubkey: bo.peerPubkey, boxPubkey: `${bo.boxPubkey}=` })).toThrow(
      SafetyNumberKeyError,
    );
  });

  it("are formatted in groups of 5, six to a line", () => {
    expect(formatSafetyNumber("1".repeat(30) + "2".repeat(30))).toBe(
      "11111 11111 11111 11111 11111 11111\n22222 22222 22222 22222 22222 22222",
    );
    expect(formatSafetyNumber("0123456789", 1)).toBe("01234\n56789");
  });
});

describe("digitGroups", () => {
  const LIMIT = Math.floor(2 ** 40 / 100000) * 100000;
  /** A 64-byte digest whose first chunks are these 40-bit values (the rest zero). */
  function digestOf(...chunks: number[]): Uint8Array {
    const out = new Uint8Array(64);
    chunks.forEach((value, i) => {
      for (let b = 0; b < 5; b++) out[i * 5 + b] = Math.floor(value / 2 ** (8 * (4 - b))) % 256;
    });
    return out;
  }

  it("reads 40-bit big-endian chunks modulo 10^5, keeping leading zeros", () => {
    expect(digitGroups(digestOf(123, 2 ** 40 - 27777, 100000 + 42), () => new Uint8Array(64), 3)).toEqual([
      "00123",
      "99999", // LIMIT - 1: the last value kept
      "00042",
    ]);
  });

  it("skips a chunk at or above the largest multiple of 10^5 below 2^40, so no group of digits is likelier", () => {
    expect(2 ** 40 - LIMIT).toBe(27776);
    expect(digitGroups(digestOf(LIMIT, 2 ** 40 - 1, 7), () => new Uint8Array(64), 1)).toEqual(["00007"]);
  });

  it("asks for another digest when twelve chunks were not enough", () => {
    const allSkipped = digestOf(...Array.from({ length: 12 }, () => LIMIT));
    const asked: Uint8Array[] = [];
    const groups = digitGroups(
      allSkipped,
      (previous) => {
        asked.push(previous);
        return digestOf(5, 6);
      },
      2,
    );
    expect(groups).toEqual(["00005", "00006"]);
    expect(asked).toEqual([allSkipped]);
  });
});

describe("verification marks", () => {
  it("stay verified while the keys are the same, and turn into changed when either key changes", () => {
    const mark = markVerified("m-1", bo, new Date("2026-12-02T14:00:00Z"));
    expect(mark).toEqual({ memberId: "m-1", keyFingerprint: keyFingerprint(bo), markedAt: "2026-12-02T14:00:00.000Z" });
    expect(keyFingerprint(bo)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(verificationState(mark, bo)).toBe("verified");
    expect(verificationState(mark, keysOf(3, 9))).toBe("changed");
    expect(verificationState(mark, keysOf(9, 4))).toBe("changed");
    expect(verificationState(mark, keysOf(3, null))).toBe("changed");
    expect(verificationState(undefined, bo)).toBe("unverified");
  });

  it("are kept one per member in a list, and a marked peer listed without its signing key counts as changed", () => {
    const first = markVerified("m-1", bo, new Date("2026-12-01T00:00:00Z"));
    const again = markVerified("m-1", keysOf(3, 9), new Date("2026-12-02T00:00:00Z"));
    const other = markVerified("m-2", ana);
    const marks = withMark(withMark([first, other], again), other);
    expect(marks).toEqual([again, other]);
    expect(verificationAmong(marks, { memberId: "m-1", ...keysOf(3, 9) })).toBe("verified");
    expect(verificationAmong(marks, { memberId: "m-1", ...bo })).toBe("changed");
    expect(verificationAmong(marks, { memberId: "m-1", peerPubkey: null, boxPubkey: bo.boxPubkey })).toBe("changed");
    expect(verificationAmong(marks, { memberId: "m-3", peerPubkey: null, boxPubkey: null })).toBe("unverified");
    expect(withoutMark(marks, "m-1")).toEqual([other]);
  });
});

/** Ana (sign seed 32 × 0x01, box secret 32 × 0x02) and Bo (0x03, 0x04); docs/protocol.md prints it too. */
const KNOWN_VECTOR = "10416 25165 65369 91849 70813 53262\n74802 50592 63006 34500 78106 25399";
