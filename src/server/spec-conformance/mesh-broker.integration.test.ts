// Document 2 (spec/mesh-broker.md), checked with the spec's own literal values: each test names the
// sentence it checks. A real broker on a loopback port, real PostgreSQL.
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64Url } from "@/server/core/encoding";
import { testDb } from "@/test/helpers";
import { meshWithInvite, startBroker, type TestBroker } from "../../../broker/test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, { JOIN_RATE_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

const join = (token: string) =>
  fetch(`${broker.http}/join`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, peerPubkey: toBase64Url(nacl.sign.keyPair().publicKey), displayName: "Conformance" }),
  });

/** The same payload, still validly signed (the signature covers the canonical bytes, not the text), written another way. */
function reencoded(token: string, how: "reordered" | "whitespace" | "padding"): string {
  const text = Buffer.from(token, "base64url").toString("utf8");
  if (how === "padding") return Buffer.from(text).toString("base64").replace(/\+/g, "-").replace(/\//g, "_");
  const payload = JSON.parse(text) as Record<string, unknown>;
  if (how === "whitespace") return Buffer.from(JSON.stringify(payload, null, 1)).toString("base64url");
  const reversed = Object.fromEntries(Object.entries(payload).reverse());
  return Buffer.from(JSON.stringify(reversed)).toString("base64url");
}

describe("Document 2: join rules", () => {
  it('rule 1: "The invite is looked up by exact equality of the submitted token string with the stored invite token"', async () => {
    const { mesh, invite } = await meshWithInvite(db);
    const members = () => db.member.count({ where: { meshId: mesh.id } });
    const before = await members();
    // A validly signed payload in another spelling is not the stored token: no invite, no member.
    for (const how of ["reordered", "whitespace"] as const) {
      const other = reencoded(invite.token, how);
      expect(other).not.toBe(invite.token);
      const res = await join(other);
      expect(res.status, how).toBe(404);
      expect(await res.json(), how).toEqual({ error: { code: "invite_not_found", message: expect.any(String) } });
    }
    // With padding it is not even a token of this codec (rule 2: base64url, which has none).
    const padded = reencoded(invite.token, "padding");
    if (padded !== invite.token) {
      const res = await join(padded);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invite_malformed");
    }
    expect(await members()).toBe(before);
    // The stored spelling joins.
    expect((await join(invite.token)).status).toBe(200);
    expect(await members()).toBe(before + 1);
  });

  it('rule 4: "When the signature does not verify the join is rejected with invite_bad_signature"', async () => {
    const { invite } = await meshWithInvite(db);
    const payload = JSON.parse(Buffer.from(invite.token, "base64url").toString("utf8")) as Record<string, string>;
    const sig = payload.signature ?? "";
    payload.signature = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    const res = await join(Buffer.from(JSON.stringify(payload)).toString("base64url"));
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invite_bad_signature");
  });
});
