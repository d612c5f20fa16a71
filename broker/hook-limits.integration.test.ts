// Issue 41, attack 7: the status hook's limit was keyed by a (pid, cwd) the caller chooses, so 300 updates
// with rotating pids all passed, each leaving an audit row and a rate_limits row. Now the member (its
// peer key) has a limit of its own besides the script's, a member's status updates share one audit row
// per window, and idle rate_limits rows are swept by the broker's periodic maintenance.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import { hookRequest, joinedPeer, meshWithInvite, startBroker, type TestBroker } from "./test-support";

const db = testDb();
// The limiters' clock: fixed while the updates are sent, so the refill adds nothing the test must time.
let clock = Date.now();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, { RATE_LIMIT_SWEEP_AFTER_MS: "1000" }, { now: () => clock });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

describe("POST /hook/set-status under rotating process ids", () => {
  it("limits the member, coalesces its audit rows and sweeps the buckets once idle", { timeout: 120_000 }, async () => {
    const { invite } = await meshWithInvite(db);
    const peer = await joinedPeer(db, invite.token, "rotor");
    const answers: { status: number; retryAfter: string | null; code?: string }[] = [];
    for (let i = 0; i < 300; i++) {
      const res = await hookRequest(broker.http, peer, { pid: 10_000 + i, status: i % 2 ? "working" : "idle" });
      const body = (await res.json()) as { error?: { code: string } };
      answers.push({
        status: res.status,
        retryAfter: res.headers.get("retry-after"),
        ...(body.error ? { code: body.error.code } : {}),
      });
    }
    const allowed = answers.filter((a) => a.status === 200).length;
    // HOOK_MEMBER_RATE_CAPACITY (default 60): the member's bucket, whatever pid each update claims.
    expect(allowed).toBe(60);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(240);
    for (const r of refused) {
      expect(r).toMatchObject({ status: 429, code: "TOO_MANY_REQUESTS" });
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    }

    // The audit log holds a bounded number of status rows for the member, which count every update.
    const rows = await db.auditEvent.findMany({
      where: { meshId: peer.meshId, eventType: "status_changed", actorMemberId: peer.memberId },
    });
    expect(rows.length).toBeLessThanOrEqual(2);
    const updates = rows.reduce((n, r) => n + Number((r.metadata as { updates?: number }).updates ?? 1), 0);
    expect(updates).toBe(allowed);
    expect(rows.at(-1)?.metadata).toMatchObject({ status: "working" });

    // One bucket per allowed script and one for the member; none for a refused update.
    const held = (await broker.hookLimiter.count()) + (await broker.hookMemberLimiter.count());
    expect(held).toBe(allowed + 1);
    // Idle past their window (and RATE_LIMIT_SWEEP_AFTER_MS): the broker's maintenance drops them.
    clock += 10 * 60_000;
    expect(await broker.sweepRateLimits()).toBeGreaterThanOrEqual(held);
    expect((await broker.hookLimiter.count()) + (await broker.hookMemberLimiter.count())).toBe(0);
  });
});
