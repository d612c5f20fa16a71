import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../encoding";
import { INVITE_FIELDS, decodeInviteToken, formatInviteExpiry, verifyInviteToken, type TInvitePayload } from "./index";
import vectors from "./test-vectors.json";

// tweetnacl needs a few milliseconds per verification, so runs that reach the signature stay small.
const RUNS = { verifying: 60, cheap: 200 };
type Field = (typeof INVITE_FIELDS)[number];
const base = vectors.payload as TInvitePayload;
const now = new Date(vectors.valid_at);
const MALFORMED = { ok: false, reason: "malformed" };
const b64url = (value: string | Uint8Array) => Buffer.from(value).toString("base64url");
const rawToken = (value: unknown) => b64url(JSON.stringify(value) ?? "");
const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Valid values of each field other than `v` (its only valid value is 1). */
const validValue: Record<Exclude<Field, "v">, fc.Arbitrary<string>> = {
  mesh_id: fc.uuid().map((s) => s.toLowerCase()),
  mesh_slug: fc.stringMatching(SLUG),
  broker_url: fc
    .tuple(
      fc.constantFrom("ws", "wss"),
      fc.domain(),
      fc.option(fc.integer({ min: 1, max: 65535 })),
      fc.stringMatching(/^(\/[a-z0-9._~-]{0,12}){0,3}$/),
    )
    .map(([scheme, host, port, path]) => `${scheme}://${host}${port === null ? "" : `:${port}`}${path}`),
  expires_at: fc
    .date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true })
    .map(formatInviteExpiry),
  mesh_root_key: bytes(32).map(toBase64Url),
  role: fc.constantFrom("admin", "member", "observer"),
  owner_pubkey: bytes(32).map(toBase64Url),
  signature: bytes(64).map(toBase64Url),
};

const notJsonString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);
const withPipe = (arb: fc.Arbitrary<string>) =>
  fc.tuple(arb, fc.nat()).map(([s, i]) => `${s.slice(0, i % (s.length + 1))}|${s.slice(i % (s.length + 1))}`);
const base64Of = (lengths: fc.Arbitrary<number>) => lengths.chain((n) => bytes(n)).map(toBase64Url);
const wrongLength = (n: number) => base64Of(fc.integer({ min: 0, max: 96 }).filter((k) => k !== n));

/** Invalid values of each field, each invalid by construction. */
const invalidValue: Record<Field, fc.Arbitrary<unknown>> = {
  v: fc.oneof(
    fc.integer().filter((n) => n !== 1),
    fc.constantFrom("1", 1.5, "v1", true, null, [1]),
  ),
  mesh_id: fc.oneof(
    fc
      .uuid()
      .map((s) => s.toUpperCase())
      .filter((s) => /[A-F]/.test(s)),
    fc.uuid().map((s) => s.slice(1)),
    withPipe(validValue.mesh_id),
  ),
  mesh_slug: fc.oneof(
    fc.string().filter((s) => !SLUG.test(s)),
    validValue.mesh_slug.map((s) => `-${s}`),
    withPipe(validValue.mesh_slug),
  ),
  broker_url: fc.oneof(
    fc.webUrl(),
    validValue.broker_url.map((u) => `${u} `),
    withPipe(validValue.broker_url),
    fc.constant(`wss://${"h".repeat(2043)}`),
  ),
  expires_at: fc.oneof(
    fc
      .date({ noInvalidDate: true, min: new Date(0), max: new Date("9999-12-31T00:00:00Z") })
      .map((d) => d.toISOString()),
    validValue.expires_at.map((s) => s.replace("Z", "+00:00")),
    validValue.expires_at.map((s) => s.replace("T", " ")),
  ),
  mesh_root_key: fc.oneof(
    wrongLength(32),
    bytes(32).map((b) => Buffer.from(b).toString("base64")),
    withPipe(validValue.mesh_root_key),
  ),
  role: fc.oneof(fc.constantFrom("owner", "Owner", "ADMIN", "", "member "), withPipe(validValue.role)),
  owner_pubkey: fc.oneof(
    wrongLength(32),
    bytes(32).map((b) => Buffer.from(b).toString("base64")),
    withPipe(validValue.owner_pubkey),
  ),
  signature: fc.oneof(
    wrongLength(64),
    bytes(64).map((b) => Buffer.from(b).toString("base64")),
    withPipe(validValue.signature),
  ),
};

const anyField = fc.constantFrom(...INVITE_FIELDS);
const verify = (token: unknown) => verifyInviteToken(token, { now });

describe("invite codec properties", () => {
  it("a valid change to any one field, not re-signed, is bad_signature and still shows the payload", () => {
    const changed = fc
      .constantFrom(...(Object.keys(validValue) as (keyof typeof validValue)[]))
      .chain((field) =>
        validValue[field].filter((value) => value !== base[field]).map((value) => ({ ...base, [field]: value })),
      );
    fc.assert(
      fc.property(changed, (payload) => {
        expect(verify(rawToken(payload))).toEqual({ ok: false, reason: "bad_signature", payload });
      }),
      { numRuns: RUNS.verifying },
    );
  });

  it("an invalid value in any one field is malformed", () => {
    const broken = anyField.chain((field) => invalidValue[field].map((value) => ({ ...base, [field]: value })));
    fc.assert(
      fc.property(broken, (payload) => void expect(verify(rawToken(payload))).toEqual(MALFORMED)),
      { numRuns: RUNS.cheap },
    );
  });

  it("replacing any one character of a valid token never verifies", () => {
    const replacement = fc.oneof(
      fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.nat({ max: vectors.token.length - 1 }), replacement, (index, char) => {
        fc.pre(vectors.token[index] !== char);
        const result = verify(`${vectors.token.slice(0, index)}${char}${vectors.token.slice(index + 1)}`);
        expect(result.ok).toBe(false);
        expect(["malformed", "bad_signature"]).toContain(result.ok ? "ok" : result.reason);
      }),
      { numRuns: RUNS.verifying },
    );
  });

  it("changing any one byte of the encoded JSON never verifies", () => {
    const json = Buffer.from(JSON.stringify(base), "utf8");
    fc.assert(
      fc.property(fc.nat({ max: json.length - 1 }), fc.integer({ min: 1, max: 255 }), (index, mask) => {
        const copy = Buffer.from(json);
        copy[index] = (copy[index] ?? 0) ^ mask;
        const result = verify(copy.toString("base64url"));
        expect(result.ok ? "ok" : result.reason).toMatch(/^(malformed|bad_signature)$/);
      }),
      { numRuns: RUNS.verifying },
    );
  });

  it("random strings, random bytes and bad base64url are malformed", () => {
    const badBase64 = fc
      .tuple(
        fc.nat({ max: vectors.token.length }),
        fc.constantFrom("=", "==", "+", "/", " ", "\n", ".", "%3D", "\u00e9", "\0"),
      )
      .map(([i, s]) => `${vectors.token.slice(0, i)}${s}${vectors.token.slice(i)}`);
    // Base64url whose length is 1 modulo 4 cannot be decoded at all.
    const dangling = fc
      .string({ minLength: 1 })
      .map((s) => b64url(s))
      .map((s) => `${s}${"A".repeat((5 - (s.length % 4)) % 4)}`);
    const randomBytes = fc.uint8Array({ maxLength: 600 }).map(b64url);
    const inputs = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary", maxLength: 300 }),
      randomBytes,
      badBase64,
      dangling,
    );
    fc.assert(
      fc.property(inputs, (token) => void expect(verify(token)).toEqual(MALFORMED)),
      { numRuns: RUNS.cheap },
    );
  });

  it("base64url of non-JSON and JSON of the wrong shape are malformed", () => {
    const notJson = fc
      .string()
      .map((s) => `${s}}`)
      .filter((s) => {
        try {
          JSON.parse(s);
          return false;
        } catch {
          return true;
        }
      });
    const missing = fc
      .subarray([...INVITE_FIELDS], { minLength: 1 })
      .map((gone) => Object.fromEntries(Object.entries(base).filter(([k]) => !gone.includes(k as Field))));
    const extra = fc
      .tuple(
        fc.string().filter((k) => !(INVITE_FIELDS as readonly string[]).includes(k)),
        fc.jsonValue(),
      )
      .map(([k, v]) => ({ ...base, [k]: v }));
    const wrongType = anyField.chain((field) =>
      notJsonString.filter((value) => value !== 1).map((value) => ({ ...base, [field]: value })),
    );
    const constants = fc.constantFrom<unknown>([base], [], null, 1, vectors.token);
    const shapes = fc.oneof(fc.jsonValue(), missing, extra, wrongType, constants);
    fc.assert(
      fc.property(
        fc.oneof(notJson.map(b64url), shapes.map(rawToken)),
        (token) => void expect(verify(token)).toEqual(MALFORMED),
      ),
      { numRuns: RUNS.cheap },
    );
  });

  it("never throws on any value of any type", () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true }),
        (value) => {
          expect(verify(value)).toEqual(MALFORMED);
          expect(decodeInviteToken(value)).toEqual(MALFORMED);
        },
      ),
      { numRuns: RUNS.cheap },
    );
  });

  // Only the answer is checked here: timings belong in bench/, not in tests.
  it("rejects a 1 MB token as malformed, a thousand times", () => {
    const huge = [`${"A".repeat(1 << 20)}`, `${vectors.token}${"A".repeat((1 << 20) - vectors.token.length)}`];
    for (let i = 0; i < 1000; i++) expect(verify(huge[i % 2])).toEqual(MALFORMED);
  });
});
