import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/services/actor";
import { testDb, type Spawned } from "@/test/helpers";
import {
  makeContext,
  makeKey,
  makeVersion,
  spawnWorkerProcess,
  startReceiver,
  testSettings,
  verifyStandardWebhook,
  waitFor,
} from "@/test/review-fixtures";
import { createJob } from "./create-jobs";
import { ZCreateJobInput } from "./create-jobs.schema";
import { withActor } from "@/server/services/context";

// A callback is never lost when the worker restarts: the worker process that ran the job is killed
// with SIGKILL while the job's callback is in flight or waiting for its next attempt, and a new
// worker process delivers it, signed, under the same webhook-id, recorded as delivered.

const db = testDb();
const settings = testSettings({ JOB_EXPIRE_GRACE_SECONDS: "1", QUEUE_MAINTENANCE_SECONDS: "1" });
let deps: ReturnType<typeof makeContext>;
beforeAll(async () => {
  deps = makeContext(db, settings);
});
afterAll(() => db.$disconnect());

/** A worker process on this file's queue: callbacks time out after 1 s, a lost attempt is taken again after 1 s more. */
const spawnWorker = (backoffBaseMs: number) =>
  spawnWorkerProcess(settings, {
    JOB_EXPIRE_GRACE_SECONDS: "1",
    QUEUE_MAINTENANCE_SECONDS: "1",
    CALLBACK_TIMEOUT_MS: "1000",
    CALLBACK_BACKOFF_BASE_MS: String(backoffBaseMs),
    CALLBACK_BACKOFF_MAX_MS: String(backoffBaseMs),
  });

/** Submits a job with a callback to the receiver on a no-op scraper; the worker process runs it. */
async function submit(receiverUrl: string) {
  const k = await makeKey(db, ["jobs:write"]);
  const actor: Actor = { kind: "apiKey", apiKeyId: k.id, scopes: ["jobs:write"] };
  const v = await makeVersion(db, "noop");
  const { value: job } = await createJob(
    withActor(deps, actor),
    ZCreateJobInput.parse({
      requester_client_id: "acme",
      platform_id: "cb-1",
      scraper_version: v.version,
      callback_url: receiverUrl,
    }),
  );
  return { jobId: job.id, secret: k.secret };
}

async function killed(worker: Spawned) {
  worker.child.kill("SIGKILL");
  await worker.exited;
}

describe("a callback when its worker is killed", () => {
  it("in flight (the receiver has not answered): a new worker sends it again under the same webhook-id", async () => {
    // The first request hangs; every later one is answered 200.
    const receiver = await startReceiver([0, 200]);
    const first = await spawnWorker(50);
    let second: Spawned | undefined;
    try {
      const { jobId, secret } = await submit(receiver.url);
      await waitFor(
        async () => (receiver.received.length > 0 ? true : undefined),
        30_000,
        "the first attempt to reach the receiver",
      );
      const pending = await db.job.findUniqueOrThrow({ where: { id: jobId } });
      expect(pending).toMatchObject({ status: "succeeded", callbackState: "pending", callbackAttempts: 0 });
      await killed(first);

      second = await spawnWorker(50);
      const done = await waitFor(
        async () => {
          const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
          return row.callbackState === "delivered" ? row : undefined;
        },
        45_000,
        "the new worker to deliver the callback",
      );
      expect(done).toMatchObject({ callbackAttempts: 1, callbackLastStatus: 200 });
      expect(receiver.received).toHaveLength(2);
      const [lost, delivered] = receiver.received;
      expect(delivered?.headers["webhook-id"]).toBe(lost?.headers["webhook-id"]);
      expect(JSON.parse(delivered?.body ?? "{}")).toMatchObject({ type: "job.completed", data: { id: jobId } });
      expect(await verifyStandardWebhook(secret, delivered!)).toBe(true);
      const delivery = await db.callbackDelivery.findFirstOrThrow({ where: { jobId }, include: { attemptLog: true } });
      expect(delivery).toMatchObject({ state: "delivered", attempts: 1 });
      expect(delivery.attemptLog.map((a) => a.statusCode)).toEqual([200]);
    } finally {
      if (first.child.exitCode === null) first.child.kill("SIGKILL");
      second?.child.kill("SIGTERM");
      await second?.exited;
      await receiver.close();
    }
  });

  it("waiting for its next attempt after a 503: the new worker makes that attempt when it is due", async () => {
    const receiver = await startReceiver([503, 200]);
    // 2 to 4 s between the first and the second attempt: time to kill the worker in between.
    const first = await spawnWorker(4_000);
    let second: Spawned | undefined;
    try {
      const { jobId, secret } = await submit(receiver.url);
      const retrying = await waitFor(
        async () => {
          const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
          return row.callbackAttempts === 1 ? row : undefined;
        },
        30_000,
        "the first attempt to be recorded",
      );
      expect(retrying).toMatchObject({ callbackState: "pending", callbackLastStatus: 503 });
      await killed(first);
      expect(receiver.received).toHaveLength(1);

      second = await spawnWorker(4_000);
      const done = await waitFor(
        async () => {
          const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
          return row.callbackState === "delivered" ? row : undefined;
        },
        45_000,
        "the new worker to make the second attempt",
      );
      expect(done).toMatchObject({ callbackAttempts: 2, callbackLastStatus: 200 });
      expect(receiver.received.map((r) => r.status)).toEqual([503, 200]);
      expect(receiver.received[1]?.headers["webhook-id"]).toBe(receiver.received[0]?.headers["webhook-id"]);
      for (const r of receiver.received) expect(await verifyStandardWebhook(secret, r)).toBe(true);
      const delivery = await db.callbackDelivery.findFirstOrThrow({
        where: { jobId },
        include: { attemptLog: { orderBy: { attempt: "asc" } } },
      });
      expect(delivery.attemptLog.map((a) => a.statusCode)).toEqual([503, 200]);
    } finally {
      if (first.child.exitCode === null) first.child.kill("SIGKILL");
      second?.child.kill("SIGTERM");
      await second?.exited;
      await receiver.close();
    }
  });
});
