import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiKeyActor } from "@/server/services/actor";
import { freePort, testDb, uid } from "@/test/helpers";
import {
  makeContext,
  makeKey,
  makeVersion,
  startJsonPlatform,
  startReceiver,
  startTestWorker,
  testSettings,
  verifyStandardWebhook,
  waitFor,
} from "@/test/review-fixtures";
import { attemptDelivery } from "./callbacks/deliver";
import { reviewOnlySettings } from "./system-context";
import { cancelBatch } from "./cancel-batch";
import { createBatch, createJob } from "./create-jobs";
import { getBatch, getJobDetail } from "./read";
import { ZCreateBatchInput, ZCreateJobInput } from "./create-jobs.schema";
import { serviceContext, withActor } from "@/server/services/context";

const db = testDb();
let deps: ReturnType<typeof makeContext>;
let stopWorker: () => Promise<void>;
let platform: Awaited<ReturnType<typeof startJsonPlatform>>;
beforeAll(async () => {
  deps = makeContext(db, testSettings({ JOB_MAX_ATTEMPTS: "2" }));
  stopWorker = await startTestWorker(deps);
  platform = await startJsonPlatform({ reviews: 4 });
});
afterAll(async () => {
  await stopWorker();
  await platform.close();
  await db.$disconnect();
});

async function keyActor(scopes: ("jobs:read" | "jobs:write")[] = ["jobs:read", "jobs:write"]) {
  const k = await makeKey(db, scopes);
  return { ...k, actor: { kind: "apiKey", apiKeyId: k.id, scopes } as ApiKeyActor };
}

describe("jobs on the queue", () => {
  it("runs a job, stores its reviews deduplicated per place, and delivers a signed job.completed after 3 failures", async () => {
    const receiver = await startReceiver([500, 503, 429, 200]);
    const { actor, secret } = await keyActor();
    const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
    const input = ZCreateJobInput.parse({
      requester_client_id: "acme",
      platform_id: "place-1",
      scraper_version: v.version,
      callback_url: receiver.url,
    });
    const { value: job } = await createJob(withActor(deps, actor), input);
    const done = await waitFor(
      async () => {
        const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
        return row.callbackState === "delivered" ? row : undefined;
      },
      30_000,
      "delivered callback",
    );
    expect(done).toMatchObject({
      status: "succeeded",
      reviewCount: 4,
      attempts: 1,
      callbackAttempts: 4,
      callbackLastStatus: 200,
      scraperVersion: v.version,
    });
    expect(receiver.received.map((r) => r.status)).toEqual([500, 503, 429, 200]);
    for (const r of receiver.received) expect(await verifyStandardWebhook(secret, r)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const tampered = { ...receiver.received[0]!, body: receiver.received[0]!.body.replace("acme", "acmf") };
    expect(await verifyStandardWebhook(secret, tampered)).toBe(false);
    const payload = JSON.parse(receiver.received[3]!.body) as {
      type: string;
      data: { id: string; status: string; review_count: number };
    };
    expect(payload).toMatchObject({
      type: "job.completed",
      data: { id: job.id, status: "succeeded", review_count: 4 },
    });

    // The same place again: reviews are not duplicated, the second job links the same rows.
    const { value: again } = await createJob(withActor(deps, actor), input);
    await waitFor(async () =>
      (await db.job.findUniqueOrThrow({ where: { id: again.id } })).status === "succeeded" ? true : undefined,
    );
    expect(await db.review.count({ where: { placeKey: "demo-platform:place-1" } })).toBe(4);
    expect(await db.jobReview.count({ where: { jobId: again.id } })).toBe(4);

    const detail = await getJobDetail(serviceContext(actor, { db }), { job_id: job.id });
    expect(detail.events.map((e) => e.status)).toEqual(["queued", "running", "succeeded"]);
    expect(detail.reviews).toHaveLength(4);
    expect(detail.callbacks[0]?.attempt_log.map((a) => a.status_code)).toEqual([500, 503, 429, 200]);
    await receiver.close();
  });

  it("retries a transient failure with backoff, then fails with the error class and sends job.failed", async () => {
    const receiver = await startReceiver([200]);
    const { actor, secret } = await keyActor();
    // A port nobody listens on: connection refused, a transient network error.
    const v = await makeVersion(db, "http-json", { platformUrl: `http://127.0.0.1:${await freePort()}` });
    const { value: job } = await createJob(
      withActor(deps, actor),
      ZCreateJobInput.parse({
        requester_client_id: "acme",
        platform_id: "p",
        scraper_version: v.version,
        callback_url: receiver.url,
      }),
    );
    const row = await waitFor(
      async () => {
        const r = await db.job.findUniqueOrThrow({ where: { id: job.id } });
        return r.callbackState === "delivered" ? r : undefined;
      },
      30_000,
      "job.failed delivered",
    );
    expect(row).toMatchObject({ status: "failed", errorClass: "network", attempts: 2 });
    const events = await db.jobEvent.findMany({ where: { jobId: job.id }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.status)).toEqual(["queued", "running", "queued", "running", "failed"]);
    const body = JSON.parse(receiver.received[0]!.body) as { type: string; data: { error: { class: string } } };
    expect(body).toMatchObject({ type: "job.failed", data: { error: { class: "network" } } });
    expect(await verifyStandardWebhook(secret, receiver.received[0]!)).toBe(true);
    await receiver.close();
  });

  it("reports batch progress and sends batch.completed exactly once, signed with the per-callback secret", async () => {
    const receiver = await startReceiver([200]);
    const { actor } = await keyActor();
    const v = await makeVersion(db, "noop");
    const secret = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
    const input = ZCreateBatchInput.parse({
      requester_client_id: "acme",
      callback_url: receiver.url,
      callback_secret: secret,
      jobs: Array.from({ length: 12 }, (_, i) => ({ platform_id: `b-${i}`, scraper_version: v.version })),
    });
    const { value: batch } = await createBatch(withActor(deps, actor), input);
    expect(batch).toMatchObject({ total_jobs: 12, percent: 0, counts: { queued: 12 } });
    const done = await waitFor(
      async () => {
        const b = await getBatch(serviceContext(actor, { db }), { batch_id: batch.id });
        return b.callback_state === "delivered" ? b : undefined;
      },
      30_000,
      "batch.completed",
    );
    expect(done).toMatchObject({
      status: "completed",
      percent: 100,
      finished_jobs: 12,
      counts: { succeeded: 12, queued: 0, running: 0 },
    });
    await new Promise((r) => setTimeout(r, 500));
    const batchCallbacks = receiver.received.filter((r) => r.body.includes('"batch.completed"'));
    expect(batchCallbacks).toHaveLength(1);
    expect(await verifyStandardWebhook(secret, batchCallbacks[0]!)).toBe(true);
    expect(await db.callbackDelivery.count({ where: { batchId: batch.id } })).toBe(1);
    await receiver.close();
  });

  it("cancels a batch: queued jobs cancelled, running ones finish, batch.completed once with status cancelled", async () => {
    const receiver = await startReceiver([200]);
    const { actor } = await keyActor();
    let holding = true;
    const slow = await startJsonPlatform({ hold: () => holding });
    const v = await makeVersion(db, "http-json", { platformUrl: slow.url });
    const input = ZCreateBatchInput.parse({
      requester_client_id: "acme",
      callback_url: receiver.url,
      jobs: Array.from({ length: 20 }, (_, i) => ({ platform_id: `c-${i}`, scraper_version: v.version })),
    });
    const { value: batch } = await createBatch(withActor(deps, actor), input);
    await waitFor(
      async () =>
        (await getBatch(serviceContext(actor, { db }), { batch_id: batch.id })).counts.running > 0 ? true : undefined,
      10_000,
      "a running job",
    );
    const cancelled = await cancelBatch(withActor(deps, actor), { batch_id: batch.id });
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.cancelled_jobs).toBeGreaterThanOrEqual(18);
    expect(cancelled.counts.queued).toBe(0);
    holding = false;
    await slow.close(); // the held requests fail: the running jobs end (retry, then fail) on their own
    const ended = await waitFor(
      async () => {
        const b = await getBatch(serviceContext(actor, { db }), { batch_id: batch.id });
        return b.completed_at && b.callback_state === "delivered" ? b : undefined;
      },
      30_000,
      "cancelled batch to end",
    );
    expect(ended.status).toBe("cancelled");
    expect(ended.counts.running + ended.counts.queued).toBe(0);
    expect(ended.counts.cancelled + ended.counts.failed + ended.counts.succeeded).toBe(20);
    const calls = receiver.received.filter((r) => r.body.includes('"batch.completed"'));
    expect(calls).toHaveLength(1);
    expect(JSON.parse(calls[0]!.body)).toMatchObject({ data: { id: batch.id, status: "cancelled" } });
    // Cancelling again changes nothing.
    expect((await cancelBatch(withActor(deps, actor), { batch_id: batch.id })).cancelled_jobs).toBe(0);
    await receiver.close();
  });
});

describe("callback delivery rules", () => {
  async function deliveryTo(url: string) {
    const { actor } = await keyActor();
    const v = await makeVersion(db, "noop");
    const { value: job } = await createJob(
      withActor(deps, actor),
      ZCreateJobInput.parse({
        requester_client_id: uid("c"),
        platform_id: "x",
        scraper_version: v.version,
        callback_url: url,
      }),
    );
    return waitFor(async () => (await db.callbackDelivery.findFirst({ where: { jobId: job.id } })) ?? undefined);
  }

  it("stops at 410 without retrying", async () => {
    const receiver = await startReceiver([410]);
    const d = await deliveryTo(receiver.url);
    const row = await waitFor(async () => {
      const r = await db.callbackDelivery.findUniqueOrThrow({ where: { id: d.id } });
      return r.state === "failed" ? r : undefined;
    });
    expect(row).toMatchObject({ attempts: 1, lastStatusCode: 410 });
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  it("refuses loopback destinations unless private addresses are allowed", async () => {
    const receiver = await startReceiver([200]);
    const strict = {
      ...deps,
      settings: reviewOnlySettings(testSettings({ CALLBACK_ALLOW_PRIVATE: "0" })),
    };
    const { actor } = await keyActor();
    const v = await makeVersion(db, "noop");
    await expect(
      createJob(
        withActor(strict, actor),
        ZCreateJobInput.parse({
          requester_client_id: "c",
          platform_id: "x",
          scraper_version: v.version,
          callback_url: receiver.url,
        }),
      ),
    ).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: "callback_url_refused",
    });
    const row = await db.callbackDelivery.create({
      data: { webhookId: uid("msg"), kind: "job_completed", url: "http://localhost:9/x", payload: {} },
    });
    expect(await attemptDelivery(strict, { deliveryId: row.id })).toBe("failed");
    const after = await db.callbackDelivery.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.lastError).toMatch(/^destination_refused|no_signing_secret/);
    expect(receiver.received).toHaveLength(0);
    await receiver.close();
  });
});
