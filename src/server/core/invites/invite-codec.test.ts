import { createPublicKey, verify as nodeVerify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../encoding";
import {
  INVITE_TOKEN_MAX_LENGTH,
  canonicalInviteString,
  createInviteToken,
  decodeInviteToken,
  encodeInviteToken,
  generateOwnerKeyPair,
  generateRootKey,
  ownerKeyPairFromSeed,
  signInvite,
  verifyInviteToken,
  type TInvitePayload,
  type TUnsignedInvitePayload,
} from "./index";
import vectors from "./test-vectors.json";

const rawToken = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
const keys = ownerKeyPairFromSeed(Buffer.from(vectors.seed_hex, "hex"));
const { signature: _vectorSignature, ...vectorUnsigned } = vectors.payload as TInvitePayload;

describe("invite test vectors", () => {
  it("derive the owner key pair from the fixed seed", () => {
    expect(toBase64Url(keys.publicKey)).toBe(vectors.owner_pubkey);
    expect(vectors.payload.owner_pubkey).toBe(vectors.owner_pubkey);
  });

  it("reproduce the canonical string, signature and token", () => {
    expect(canonicalInviteString(vectorUnsigned)).toBe(vectors.canonical);
    const signed = signInvite(vectorUnsigned, keys.secretKey);
    expect(signed.signature).toBe(vectors.signature);
    expect(signed).toEqual(vectors.payload);
    expect(encodeInviteToken(signed)).toBe(vectors.token);
    expect(createInviteToken(vectorUnsigned, keys.secretKey)).toEqual({
      token: vectors.token,
      payload: vectors.payload,
    });
  });

  it("agree with an independent ed25519 and base64url (node:crypto, Buffer)", () => {
    const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(keys.publicKey)]);
    const publicKey = createPublicKey({ key: spki, format: "der", type: "spki" });
    const signature = Buffer.from(vectors.signature, "base64url");
    expect(nodeVerify(null, Buffer.from(vectors.canonical, "utf8"), publicKey, signature)).toBe(true);
    expect(JSON.parse(Buffer.from(vectors.token, "base64url").toString("utf8"))).toEqual(vectors.payload);
    expect(Buffer.from(JSON.stringify(vectors.payload), "utf8").toString("base64url")).toBe(vectors.token);
  });

  it("verify before expiry and report expired (with the payload) at and after it", () => {
    expect(decodeInviteToken(vectors.token)).toEqual({ ok: true, payload: vectors.payload });
    expect(verifyInviteToken(vectors.token, { now: new Date(vectors.valid_at) })).toEqual({
      ok: true,
      payload: vectors.payload,
    });
    expect(verifyInviteToken(vectors.token, { now: new Date(vectors.expired_at) })).toEqual({
      ok: false,
      reason: "expired",
      payload: vectors.payload,
    });
    expect(verifyInviteToken(vectors.token, { now: new Date(Date.parse(vectors.expired_at) - 1) }).ok).toBe(true);
    expect(verifyInviteToken(vectors.token, { now: new Date(Number.NaN) })).toMatchObject({
      ok: false,
      reason: "expired",
    });
  });
});

describe("signing and encoding", () => {
  const fresh = (): { unsigned: TUnsignedInvitePayload; secretKey: Uint8Array } => {
    const pair = generateOwnerKeyPair();
    return {
      secretKey: pair.secretKey,
      unsigned: {
        ...vectorUnsigned,
        mesh_root_key: toBase64Url(generateRootKey()),
        owner_pubkey: toBase64Url(pair.publicKey),
      },
    };
  };

  it("round-trips a freshly generated mesh key pair and root key", () => {
    const { unsigned, secretKey } = fresh();
    const { token, payload } = createInviteToken(unsigned, secretKey);
    expect(verifyInviteToken(token, { now: new Date("2026-01-01T00:00:00Z") })).toEqual({ ok: true, payload });
    expect(generateRootKey()).toHaveLength(32);
    expect(toBase64Url(generateRootKey())).not.toBe(toBase64Url(generateRootKey()));
  });

  it("refuses to sign an invalid payload, naming the field but never its value", () => {
    const { unsigned, secretKey } = fresh();
    const owner = { ...unsigned, role: "owner" } as unknown as TUnsignedInvitePayload;
    expect(() => signInvite(owner, secretKey)).toThrow(/role/);
    const piped = { ...unsigned, mesh_slug: "a|b" };
    expect(() => signInvite(piped, secretKey)).toThrow(/mesh_slug/);
    const badRoot = { ...unsigned, mesh_root_key: `${unsigned.mesh_root_key}A` };
    expect(() => signInvite(badRoot, secretKey)).toThrow(/mesh_root_key/);
    try {
      signInvite(badRoot, secretKey);
    } catch (error) {
      expect(String(error)).not.toContain(unsigned.mesh_root_key);
    }
  });

  it("refuses a secret key that is not the owner_pubkey's, or not 64 bytes", () => {
    const { unsigned } = fresh();
    expect(() => signInvite(unsigned, generateOwnerKeyPair().secretKey)).toThrow(/owner_pubkey/);
    expect(() => signInvite(unsigned, new Uint8Array(32))).toThrow(/64-byte/);
  });

  it("encodes deterministically and refuses to encode an invalid payload", () => {
    expect(encodeInviteToken({ ...vectors.payload } as TInvitePayload)).toBe(vectors.token);
    const reordered = Object.fromEntries(Object.entries(vectors.payload).reverse()) as TInvitePayload;
    expect(encodeInviteToken(reordered)).toBe(vectors.token);
    expect(() => encodeInviteToken({ ...(vectors.payload as TInvitePayload), signature: "x" })).toThrow(/signature/);
  });
});

describe("decoding", () => {
  const now = new Date(vectors.valid_at);

  it("accepts re-ordered keys (the signature covers fields), but that token is not the stored string", () => {
    const reordered = rawToken(Object.fromEntries(Object.entries(vectors.payload).reverse()));
    expect(reordered).not.toBe(vectors.token);
    const result = verifyInviteToken(reordered, { now });
    expect(result).toEqual({ ok: true, payload: vectors.payload });
    // Re-encoding the decoded payload gives back the stored token, so it can be normalised when needed.
    expect(result.ok && encodeInviteToken(result.payload)).toBe(vectors.token);
  });

  it("answers malformed for non-string and empty inputs", () => {
    for (const input of [
      undefined,
      null,
      0,
      1n,
      true,
      {},
      [],
      [vectors.token],
      new String(vectors.token),
      Symbol("x"),
      () => 1,
      "",
    ]) {
      expect(verifyInviteToken(input)).toEqual({ ok: false, reason: "malformed" });
    }
  });

  it("caps the token length before decoding, above the largest valid payload", () => {
    const pair = ownerKeyPairFromSeed(new Uint8Array(32).fill(9));
    const largest = createInviteToken(
      {
        ...vectorUnsigned,
        mesh_slug: "a".repeat(64),
        broker_url: `wss://${"b".repeat(2048 - 6)}`.slice(0, 2048),
        role: "observer",
        owner_pubkey: toBase64Url(pair.publicKey),
      },
      pair.secretKey,
    );
    expect(largest.token.length).toBeLessThanOrEqual(INVITE_TOKEN_MAX_LENGTH);
    expect(decodeInviteToken(largest.token).ok).toBe(true);
    expect(decodeInviteToken("A".repeat(INVITE_TOKEN_MAX_LENGTH + 1))).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses __proto__ and constructor keys without polluting prototypes", () => {
    const json = JSON.stringify(vectors.payload);
    for (const extra of ['"__proto__":{"polluted":1}', '"constructor":{"prototype":{"polluted":1}}']) {
      const token = Buffer.from(`{${extra},${json.slice(1)}`, "utf8").toString("base64url");
      expect(verifyInviteToken(token, { now })).toEqual({ ok: false, reason: "malformed" });
    }
    const replaced = Buffer.from(json.replace('"v":1', '"__proto__":1'), "utf8").toString("base64url");
    expect(verifyInviteToken(replaced, { now })).toEqual({ ok: false, reason: "malformed" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses non-canonical base64url, a byte-order mark and invalid UTF-8", () => {
    const t = vectors.token;
    // Padding, the other alphabet, a dangling character, non-zero unused bits in the last character.
    for (const token of [`${t}=`, `${t}==`, `+${t.slice(1)}`, `${t.slice(0, -1)}/`, `${t}A`, `${t.slice(0, -1)}1`]) {
      expect(decodeInviteToken(token), token.slice(-4)).toEqual({ ok: false, reason: "malformed" });
    }
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(vectors.payload))]);
    expect(decodeInviteToken(bom.toString("base64url")).ok).toBe(false);
    const latin1 = Buffer.from(JSON.stringify({ ...vectors.payload, mesh_slug: "d\u00e9mo" }), "latin1");
    expect(decodeInviteToken(latin1.toString("base64url")).ok).toBe(false);
  });

  it("checks each field's format", () => {
    const cases: [keyof TInvitePayload, unknown][] = [
      ["v", 2],
      ["v", "1"],
      ["mesh_id", "0190F3A8-7B1C-7D2E-8F40-5A6B7C8D9E0F"],
      ["mesh_slug", "-demo"],
      ["mesh_slug", "Demo"],
      ["mesh_slug", "a".repeat(65)],
      ["broker_url", "https://broker.example.com"],
      ["broker_url", "wss://user:pw@broker.example.com"],
      ["broker_url", "wss://broker.example.com/a|b"],
      ["broker_url", `wss://${"b".repeat(2043)}`],
      ["expires_at", "2026-12-01T12:00:00.000Z"],
      ["expires_at", "2026-12-01T12:00:00+00:00"],
      ["expires_at", "2026-02-30T12:00:00Z"],
      ["mesh_root_key", Buffer.alloc(32).toString("base64")],
      ["mesh_root_key", Buffer.alloc(31).toString("base64url")],
      ["role", "owner"],
      ["owner_pubkey", `${vectors.owner_pubkey.slice(0, -1)}h`],
      ["signature", Buffer.alloc(64).toString("base64")],
    ];
    for (const [field, value] of cases) {
      expect(decodeInviteToken(rawToken({ ...vectors.payload, [field]: value })), `${field}=${String(value)}`).toEqual({
        ok: false,
        reason: "malformed",
      });
    }
  });

  it("accepts whitespace inside the JSON (same fields, same signature)", () => {
    const spaced = Buffer.from(JSON.stringify(vectors.payload, null, 2), "utf8").toString("base64url");
    expect(verifyInviteToken(spaced, { now })).toEqual({ ok: true, payload: vectors.payload });
  });
});
