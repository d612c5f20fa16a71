// The stores of a node go on a connection of their own (docs/protocol.md, "Messages", point 1): a
// reconnect storm that holds every connection of the message queue's pool (presence reservations
// waiting on a lock here, replays in real life) must not hold up a `sent`.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/test/helpers";
import {
  connect,
  eventually,
  fakeCiphertext,
  joinedPeer,
  meshWithInvite,
  startBroker,
  TestClient,
  type TestBroker,
} from "./test-support";

const db = testDb();
let broker: TestBroker;
beforeAll(async () => {
  broker = await startBroker(db, { BROKER_DB_POOL_MAX: "2" });
});
afterAll(async () => {
  await broker.close();
  await db.$disconnect();
});

describe("the store connection", () => {
  it("stores and answers `sent` while every connection of the pool waits on a lock", async () => {
    const { invite } = await meshWithInvite(db);
    const [a, b] = [await joinedPeer(db, invite.token, "a"), await joinedPeer(db, invite.token, "b")];
    // Two peers of another mesh connect while its connection-cap lock is held: each reservation holds
    // one of the pool's two connections until the lock goes.
    const other = await meshWithInvite(db, { maxUses: 5 });
    const [c, d] = [await joinedPeer(db, other.invite.token, "c"), await joinedPeer(db, other.invite.token, "d")];
    const ca = await TestClient.open(broker, a);
    const cb = await TestClient.open(broker, b);
    const locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    let waiting: ReturnType<typeof connect>[] = [];
    try {
      await locker.query("SELECT pg_advisory_lock(hashtext($1))", [`mesh-cap:${c.meshId}`]);
      waiting = [connect(broker, c), connect(broker, d)];
      for (const w of waiting) w.catch(() => {});
      // The sessions this lock holds up, and no other test's.
      const blocked = async () =>
        (
          await locker.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pg_backend_pid() = ANY(pg_blocking_pids(pid))",
          )
        ).rows[0]!.n;
      await eventually(async () => (await blocked()) === 2);
      expect(await blocked()).toBe(2);

      const started = Date.now();
      const sent = await ca.send({ kind: "peer", memberId: b.memberId }, fakeCiphertext());
      expect(sent).toMatchObject({ type: "sent", recipients: 1 });
      // Well inside the pool's 5 s wait for a connection, which a shared pool would have needed.
      expect(Date.now() - started).toBeLessThan(2_000);
      expect((await cb.waitMessages(1))[0]).toMatchObject({ from: a.memberId });

      await locker.query("SELECT pg_advisory_unlock(hashtext($1))", [`mesh-cap:${c.meshId}`]);
      for (const result of await Promise.all(waiting)) {
        expect(result.ok).toBe(true);
        if (result.ok) result.ws.close();
      }
    } finally {
      // Ending the session releases the lock, if a failure left it held.
      await locker.end();
      for (const result of await Promise.allSettled(waiting))
        if (result.status === "fulfilled" && result.value.ok) result.value.ws.close();
      await ca.close();
      await cb.close();
    }
  });
});
