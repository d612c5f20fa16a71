import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/services/actor";
import { testDb, type Spawned } from "@/test/helpers";
import {
  makeContext,
  makeKey,
  makeVersion,
  spawnWorkerProcess,
  startJsonPlatform,
  startReceiver,
  testSettings,
  waitFor,
} from "@/test/review-fixtures";
import { createJob } from "./create-jobs";
import { ZCreateJobInput } from "./create-jobs.schema";
import { withActor } from "@/server/services/context";

// A worker process killed with SIGKILL in the middle of a job: once the run's lease has passed, a new
// worker process takes the job again, and the job completes exactly once (one terminal state, one callback).

const db = testDb();
const settings = testSettings({
  JOB_TIMEOUT_MS: "3000",
  JOB_EXPIRE_GRACE_SECONDS: "1",
  QUEUE_MAINTENANCE_SECONDS: "1",
  JOB_MAX_ATTEMPTS: "3",
});
let deps: ReturnType<typeof makeContext>;
beforeAll(async () => {
  deps = makeContext(db, settings);
});
afterAll(() => db.$disconnect());

function spawnWorker(): Promise<Spawned> {
  return spawnWorkerProcess(settings, {
    WORKER_CONCURRENCY: "1",
    JOB_TIMEOUT_MS: "3000",
    JOB_EXPIRE_GRACE_SECONDS: "1",
    JOB_LEASE_MS: "2000",
    QUEUE_MAINTENANCE_SECONDS: "1",
    JOB_RETRY_DELAY_SECONDS: "1",
    CALLBACK_BACKOFF_BASE_MS: "50",
  });
}

describe("a worker killed mid-run", () => {
  it("has its job run again by another worker process, completed exactly once", async () => {
    let hold = true;
    const platform = await startJsonPlatform({ reviews: 2, hold: () => hold });
    const receiver = await startReceiver([200]);
    const k = await makeKey(db, ["jobs:write"]);
    const actor: Actor = { kind: "apiKey", apiKeyId: k.id, scopes: ["jobs:write"] };
    const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
    const first = await spawnWorker();
    let second: Spawned | undefined;
    try {
      const { value: job } = await createJob(
        withActor(deps, actor),
        ZCreateJobInput.parse({
          requester_client_id: "acme",
          platform_id: "kill-1",
          scraper_version: v.version,
          callback_url: receiver.url,
        }),
      );
      // The first worker has the job and is waiting on the platform.
      await waitFor(async () => (platform.requests() > 0 ? true : undefined), 20_000, "first worker to start the job");
      expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("running");
      first.child.kill("SIGKILL");
      await first.exited;
      hold = false;
      second = await spawnWorker();
      const done = await waitFor(
        async () => {
          const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
          return row.callbackState === "delivered" ? row : undefined;
        },
        45_000,
        "job to complete on the second worker",
      );
      expect(done).toMatchObject({ status: "succeeded", reviewCount: 2, attempts: 2 });
      const events = await db.jobEvent.findMany({ where: { jobId: job.id }, orderBy: { id: "asc" } });
      expect(events.map((e) => e.status)).toEqual(["queued", "running", "running", "succeeded"]);
      expect(events[2]?.detail).toMatchObject({ recovered: true, attempt: 2 });
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await db.callbackDelivery.count({ where: { jobId: job.id } })).toBe(1);
      expect(receiver.received).toHaveLength(1);
      expect(await db.jobReview.count({ where: { jobId: job.id } })).toBe(2);
    } finally {
      if (first.child.exitCode === null) first.child.kill("SIGKILL");
      second?.child.kill("SIGTERM");
      await second?.exited;
      await platform.close();
      await receiver.close();
    }
  });
});
