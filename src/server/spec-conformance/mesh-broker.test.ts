// Document 2 (spec/mesh-broker.md) rules that need no server: the canonical invite bytes and the
// database ping's exponential backoff on the broker's own defaults, with a controlled clock.
import nacl from "tweetnacl";
import { describe, expect, it } from "vitest";
import { ZBrokerConfig } from "../../../broker/config";
import { parseConfig } from "@/server/core/config";
import { DbMonitor } from "@/server/core/db-monitor";
import { toBase64Url } from "@/server/core/encoding";
import { canonicalInviteBytes, signInvite, verifyInviteToken, encodeInviteToken } from "@/server/core/invites";

describe("Document 2: join rules 2 and 3", () => {
  it('"verified with ed25519 against the payload\'s owner_pubkey over the canonical invite bytes": the fields joined by "|", in order', () => {
    const owner = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(7));
    const unsigned = {
      v: 1 as const,
      mesh_id: "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
      mesh_slug: "team-a",
      broker_url: "wss://broker.example.test/ws",
      expires_at: "2030-01-02T03:04:05Z",
      mesh_root_key: toBase64Url(new Uint8Array(32).fill(1)),
      role: "member" as const,
      owner_pubkey: toBase64Url(owner.publicKey),
    };
    // Written out by hand: a change of order, separator or field breaks this line, not a constant.
    const expected = `1|0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b|team-a|wss://broker.example.test/ws|2030-01-02T03:04:05Z|${unsigned.mesh_root_key}|member|${unsigned.owner_pubkey}`;
    expect(Buffer.from(canonicalInviteBytes(unsigned)).toString("utf8")).toBe(expected);
    const signed = signInvite(unsigned, owner.secretKey);
    expect(
      nacl.sign.detached.verify(Buffer.from(expected), Buffer.from(signed.signature, "base64url"), owner.publicKey),
    ).toBe(true);
    // Rule 2: the token is the base64url encoding of the JSON payload.
    const token = encodeInviteToken(signed);
    expect(JSON.parse(Buffer.from(token, "base64url").toString("utf8"))).toEqual(signed);
    expect(verifyInviteToken(token, { now: new Date("2029-01-01T00:00:00Z") }).ok).toBe(true);
  });
});

describe("Document 2: database health", () => {
  it('"pings are retried with exponential backoff" (the broker\'s defaults), and "GET /health answers 503 while down"', async () => {
    const config = parseConfig(ZBrokerConfig, { DATABASE_URL: "postgres://u:p@127.0.0.1:1/db" });
    const delays: number[] = [];
    let next: (() => void) | undefined;
    let failuresLeft = 8;
    const states: boolean[] = [];
    const monitor = new DbMonitor({
      url: config.DATABASE_URL,
      intervalMs: config.DB_PING_INTERVAL_MS,
      initialBackoffMs: config.DB_BACKOFF_INITIAL_MS,
      maxBackoffMs: config.DB_BACKOFF_MAX_MS,
      onChange: (up) => states.push(up),
      ping: async () => {
        if (failuresLeft-- > 0) throw new Error("down");
      },
      schedule: (fn, ms) => {
        delays.push(ms);
        next = fn;
        return undefined;
      },
    });
    expect(await monitor.start()).toBe(false);
    for (let i = 0; i < 8; i++) {
      next?.();
      await new Promise((r) => setImmediate(r));
    }
    // Each failure doubles the wait (from 250 ms, capped at 10 s); the first success pings at the interval (5 s) again.
    expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 5_000]);
    expect(states).toEqual([true]);
    expect(monitor.isUp).toBe(true);
    await monitor.stop();
  });
});
