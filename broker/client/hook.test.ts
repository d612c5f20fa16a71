import { createHash } from "node:crypto";
import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { fromBase64Url } from "../../src/server/core/encoding";
import { parseWsAuth, signHookAuth } from "../protocol/ws-auth";

// What the client sends, checked against the words of docs/protocol.md rather than against the code.
describe("hook request signature", () => {
  const keys = nacl.sign.keyPair();
  const meshId = "0b5e6f7a-1c2d-4e3f-8a9b-0c1d2e3f4a5b";
  const memberId = "1b5e6f7a-1c2d-4e3f-8a9b-0c1d2e3f4a5c";
  const body = JSON.stringify({ meshId, memberId, pid: 42, cwd: "/work", status: "working", text: "tests" });

  it("signs ic-hook-v1|mesh|member|ts|nonce|sha256hex(body) in the x-mesh-auth shape", () => {
    const header = signHookAuth({
      meshId,
      memberId,
      secretKey: keys.secretKey,
      body,
      ts: 1_700_000_000_000,
      nonce: "AAAAAAAAAAAAAAAAAAAAAA",
    });
    const parsed = parseWsAuth(header);
    expect(parsed).toMatchObject({ ts: 1_700_000_000_000, nonce: "AAAAAAAAAAAAAAAAAAAAAA" });
    const digest = createHash("sha256").update(body).digest("hex");
    const signed = `ic-hook-v1|${meshId}|${memberId}|1700000000000|AAAAAAAAAAAAAAAAAAAAAA|${digest}`;
    const signature = fromBase64Url(header.split(".")[3] ?? "", 64);
    expect(nacl.sign.detached.verify(new TextEncoder().encode(signed), signature, keys.publicKey)).toBe(true);
    // The same header does not cover another body.
    const other = signed.replace(digest, createHash("sha256").update(body.replace("tests", "lies")).digest("hex"));
    expect(nacl.sign.detached.verify(new TextEncoder().encode(other), signature, keys.publicKey)).toBe(false);
  });
});
