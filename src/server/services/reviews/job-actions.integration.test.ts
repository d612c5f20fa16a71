// Issue 15, point 4: one job at a time. Cancel of a queued job (at once) and of a running one (within
// 5 s, keeping the reviews read so far), retry of failed and cancelled jobs as new runs, their
// callbacks and their batches, through the REST paths and a real worker. Only 127.0.0.1 servers.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { handleRest } from "@/server/api/openapi/rest-handler";
import { createContext } from "@/server/api/trpc";
import type { ApiKeyActor } from "@/server/services/actor";
import { testDb, uid } from "@/test/helpers";
import { makeContext, makeKey, makeVersion, startReceiver, testSettings, waitFor } from "@/test/review-fixtures";
import { workerForFile } from "@/test/review-worker";
import { cancelJob, retryJob } from "./job-actions";
import { createBatch, createJob } from "./create-jobs";
import { ZCreateBatchInput, ZCreateJobInput } from "./create-jobs.schema";
import { withActor } from "@/server/services/context";

const db = testDb();
const deps = makeContext(db, testSettings());
// Jobs of this queue are never taken (no worker): they stay queued.
const idle = makeContext(db, testSettings({ JOB_QUEUE: `idle-${Date.now().toString(36)}` }));
workerForFile(deps);

/**
 * A platform's JSON reviews API in pages of 50: page 1 is answered at once; later pages are held open
 * while `holdAfterFirst` is true (a slow place), and `status` answers every request with that status.
 */
async function pagedPlatform(total: number) {
  const state = { holdAfterFirst: true, status: 0, held: [] as http.ServerResponse[] };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const id = /\/api\/places\/([^/]+)\/reviews/.exec(url.pathname)?.[1] ?? "none";
    if (state.status) return void res.writeHead(state.status, { "content-type": "application/json" }).end("{}");
    const page = Number(url.searchParams.get("page") ?? 1);
    if (page > 1 && state.holdAfterFirst) return void state.held.push(res);
    const from = (page - 1) * 50;
    const reviews = Array.from({ length: Math.max(0, Math.min(50, total - from)) }, (_, k) => ({
      id: `${id}-r${from + k}`,
      author: `A${from + k}`,
      rating: 4,
      text: `review ${from + k}`,
      language: "en",
      publishedAt: new Date(Date.UTC(2026, 0, 1 + from + k)).toISOString(),
      ownerReply: null,
    }));
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(
        JSON.stringify({ place: { id, name: `Place ${id}` }, nextPage: from + 50 < total ? page + 1 : null, reviews }),
      );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () => {
      for (const res of state.held) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function client(scopes: ("jobs:read" | "jobs:write")[] = ["jobs:read", "jobs:write"]) {
  const k = await makeKey(db, scopes);
  return { key: k.key, secret: k.secret, actor: { kind: "apiKey", apiKeyId: k.id, scopes } as ApiKeyActor };
}

async function rest(key: string, method: string, path: string) {
  const req = new Request(`http://test/api${path}`, { method, headers: { authorization: `Bearer ${key}` } });
  const res = await handleRest(req, () => createContext({ db, headers: req.headers }));
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const statusOf = async (id: string) => (await db.job.findUniqueOrThrow({ where: { id } })).status;
const linked = (jobId: string) => db.jobReview.count({ where: { jobId } });

describe("cancel and retry one job", () => {
  it("cancels a queued job at once, with its job.cancelled callback and its batch's counts", async () => {
    const c = await client();
    const v = await makeVersion(db, "noop");
    const single = (
      await createJob(
        withActor(idle, c.actor),
        ZCreateJobInput.parse({
          requester_client_id: "c",
          platform_id: "p-0",
          scraper_version: v.version,
          callback_url: "http://127.0.0.1:9/hook",
        }),
      )
    ).value;
    const cancelled = await rest(c.key, "POST", `/jobs/${single.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({
      id: single.id,
      status: "cancelled",
      error_class: "cancelled",
      callback_state: "pending",
    });
    const delivery = await db.callbackDelivery.findFirstOrThrow({ where: { jobId: single.id } });
    expect(delivery).toMatchObject({ kind: "job_cancelled", state: "pending" });
    expect(delivery.payload).toMatchObject({
      type: "job.cancelled",
      data: { id: single.id, status: "cancelled", error: { class: "cancelled" } },
    });
    // Again: the job as it is, nothing more.
    expect((await rest(c.key, "POST", `/jobs/${single.id}/cancel`)).json).toMatchObject({ status: "cancelled" });
    expect(await db.callbackDelivery.count({ where: { jobId: single.id } })).toBe(1);
    expect(await db.jobEvent.count({ where: { jobId: single.id, status: "cancelled" } })).toBe(1);
    // Retried while its job.cancelled is still undelivered: that callback is not sent after the new run's.
    expect((await rest(c.key, "POST", `/jobs/${single.id}/retry`)).json).toMatchObject({
      status: "queued",
      callback_state: "none",
      coverage: { stop_reason: null },
    });
    expect(await db.callbackDelivery.findFirstOrThrow({ where: { jobId: single.id } })).toMatchObject({
      state: "failed",
      lastError: "superseded_by_retry",
    });

    const batch = await createBatch(
      withActor(idle, c.actor),
      ZCreateBatchInput.parse({
        requester_client_id: "c",
        callback_url: "http://127.0.0.1:9/hook",
        jobs: [
          { platform_id: "p-1", scraper_version: v.version },
          { platform_id: "p-2", scraper_version: v.version },
        ],
      }),
    );
    const [first, second] = batch.value.job_ids;
    await cancelJob(withActor(idle, c.actor), { job_id: first! });
    expect(await db.batch.findUniqueOrThrow({ where: { id: batch.value.id } })).toMatchObject({
      queuedJobs: 1,
      cancelledJobs: 1,
      completedAt: null,
    });
    // The last one ends the batch, which sends batch.completed.
    await cancelJob(withActor(idle, c.actor), { job_id: second! });
    const ended = await db.batch.findUniqueOrThrow({ where: { id: batch.value.id } });
    expect(ended).toMatchObject({ status: "completed", cancelledJobs: 2, queuedJobs: 0 });
    expect(ended.completedAt).not.toBeNull();
    expect(await db.callbackDelivery.count({ where: { batchId: batch.value.id, kind: "batch_completed" } })).toBe(1);
  });

  it("stops a running job within 5 s keeping the reviews read so far, then runs it again on retry", async () => {
    const platform = await pagedPlatform(100);
    const receiver = await startReceiver([200]);
    try {
      const c = await client();
      const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
      const job = (
        await createJob(
          withActor(deps, c.actor),
          ZCreateJobInput.parse({
            requester_client_id: "c",
            platform_id: uid("p"),
            review_limit: 200,
            scraper_version: v.version,
            callback_url: receiver.url,
          }),
        )
      ).value;
      // Running, with page 1 read and page 2 held open by the platform.
      await waitFor(async () =>
        (await statusOf(job.id)) === "running" && platform.state.held.length > 0 ? true : undefined,
      );

      const asked = Date.now();
      const answer = await rest(c.key, "POST", `/jobs/${job.id}/cancel`);
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ status: "running" });
      expect(answer.json.cancel_requested_at).toEqual(expect.any(String));
      await waitFor(
        async () => ((await statusOf(job.id)) === "cancelled" ? true : undefined),
        5_000,
        "cancelled within 5 s",
      );
      expect(Date.now() - asked).toBeLessThan(5_000);
      const cancelled = await db.job.findUniqueOrThrow({ where: { id: job.id } });
      expect(cancelled).toMatchObject({
        status: "cancelled",
        errorClass: "cancelled",
        reviewCount: 50,
        cancelRequestedAt: null,
        stopReason: "cancelled",
      });
      expect(await linked(job.id)).toBe(50);
      await waitFor(
        async () => (receiver.received.some((r) => JSON.parse(r.body).type === "job.cancelled") ? true : undefined),
        10_000,
        "job.cancelled delivered",
      );

      // Retry: a new run of the same job, which now reads both pages.
      platform.state.holdAfterFirst = false;
      const retried = await rest(c.key, "POST", `/jobs/${job.id}/retry`);
      expect(retried.status).toBe(200);
      expect(retried.json).toMatchObject({
        id: job.id,
        status: "queued",
        error_class: null,
        review_count: 0,
        finished_at: null,
      });
      await waitFor(
        async () => ((await statusOf(job.id)) === "succeeded" ? true : undefined),
        15_000,
        "retried run succeeded",
      );
      expect(await db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
        reviewCount: 100,
        attempts: 2,
      });
      expect(await linked(job.id)).toBe(100);
      const events = await db.jobEvent.findMany({ where: { jobId: job.id }, orderBy: { id: "asc" } });
      expect(events.map((e) => e.status)).toEqual([
        "queued",
        "running",
        "running",
        "cancelled",
        "queued",
        "running",
        "succeeded",
      ]);
      expect(events[4]?.detail).toMatchObject({ retry: true, after: "cancelled" });
      await waitFor(
        async () => (receiver.received.some((r) => JSON.parse(r.body).type === "job.completed") ? true : undefined),
        10_000,
        "job.completed delivered",
      );
      // A succeeded job is neither cancelled nor retried.
      expect(await rest(c.key, "POST", `/jobs/${job.id}/cancel`)).toMatchObject({
        status: 409,
        json: { error: { code: "CONFLICT", message: "job_not_cancellable", details: { status: "succeeded" } } },
      });
      expect(await rest(c.key, "POST", `/jobs/${job.id}/retry`)).toMatchObject({
        status: 409,
        json: { error: { code: "CONFLICT", message: "job_not_retryable", details: { status: "succeeded" } } },
      });
    } finally {
      await platform.close();
      await receiver.close();
    }
  }, 60_000);

  it("retries a failed job of an ended batch: the batch opens again and ends again with a second batch.completed", async () => {
    const platform = await pagedPlatform(30);
    platform.state.status = 404;
    try {
      const c = await client();
      const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
      const batch = (
        await createBatch(
          withActor(deps, c.actor),
          ZCreateBatchInput.parse({
            requester_client_id: "c",
            callback_url: "http://127.0.0.1:9/hook",
            jobs: [{ platform_id: uid("p"), scraper_version: v.version }],
          }),
        )
      ).value;
      const jobId = batch.job_ids[0]!;
      await waitFor(
        async () => ((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).completedAt ? true : undefined),
        15_000,
        "batch ended",
      );
      expect(await db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
        status: "failed",
        errorClass: "target_not_found",
        attempts: 1,
      });

      platform.state.status = 0;
      const retried = await retryJob(withActor(deps, c.actor), { job_id: jobId });
      expect(retried.status).toBe("queued");
      const reopened = await db.batch.findUniqueOrThrow({ where: { id: batch.id } });
      expect(reopened.completedAt === null || reopened.status === "completed").toBe(true);
      await waitFor(
        async () => ((await statusOf(jobId)) === "succeeded" ? true : undefined),
        15_000,
        "retried job succeeded",
      );
      await waitFor(
        async () => ((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).completedAt ? true : undefined),
        15_000,
        "batch ended again",
      );
      expect(await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({
        status: "completed",
        succeededJobs: 1,
        failedJobs: 0,
        queuedJobs: 0,
        runningJobs: 0,
      });
      expect(await db.callbackDelivery.count({ where: { batchId: batch.id, kind: "batch_completed" } })).toBe(2);
      expect(await linked(jobId)).toBe(30);
    } finally {
      await platform.close();
    }
  }, 60_000);

  it("keeps each key to its own jobs, needs jobs:write, and refuses a retry in a cancelled batch", async () => {
    const owner = await client();
    const other = await client();
    const reader = await client(["jobs:read"]);
    const v = await makeVersion(db, "noop");
    const batch = (
      await createBatch(
        withActor(idle, owner.actor),
        ZCreateBatchInput.parse({
          requester_client_id: "c",
          jobs: [{ platform_id: "p-1", scraper_version: v.version }],
        }),
      )
    ).value;
    const jobId = batch.job_ids[0]!;
    expect(await rest(other.key, "POST", `/jobs/${jobId}/cancel`)).toMatchObject({
      status: 404,
      json: { error: { message: "job_not_found" } },
    });
    expect(await rest(other.key, "POST", `/jobs/${jobId}/retry`)).toMatchObject({ status: 404 });
    expect(await rest(reader.key, "POST", `/jobs/${jobId}/cancel`)).toMatchObject({
      status: 403,
      json: { error: { message: "missing_scope" } },
    });
    expect(await statusOf(jobId)).toBe("queued");
    // A queued job is not retried.
    expect(await rest(owner.key, "POST", `/jobs/${jobId}/retry`)).toMatchObject({
      status: 409,
      json: { error: { message: "job_not_retryable", details: { status: "queued" } } },
    });
    expect((await rest(owner.key, "DELETE", `/batches/${batch.id}`)).status).toBe(200);
    expect(await statusOf(jobId)).toBe("cancelled");
    expect(await rest(owner.key, "POST", `/jobs/${jobId}/retry`)).toMatchObject({
      status: 409,
      json: { error: { message: "batch_cancelled" } },
    });
  });
});
