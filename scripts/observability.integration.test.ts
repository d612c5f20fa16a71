import { afterAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/services/actor";
import { createJob } from "@/server/services/reviews/create-jobs";
import { ZCreateJobInput } from "@/server/services/reviews/create-jobs.schema";
import { spawnTsx, testDb, freePort, waitForHttp, type Spawned } from "@/test/helpers";
import {
  makeKey,
  makeContext,
  makeVersion,
  spawnWorkerProcess,
  startJsonPlatform,
  startReceiver,
  testSettings,
  waitFor,
} from "@/test/review-fixtures";
import { withActor } from "../src/server/services/context";

// /metrics and /ready of the worker and the broker as real processes (docs/observability.md). The web
// app's are checked against the production build by e2e/metrics.spec.ts.

const db = testDb();
const settings = testSettings({ JOB_TIMEOUT_MS: "20000" });
const deps = makeContext(db, settings);
const TOKEN = "a-metrics-token-of-some-length";
const WORKER_ENV = {
  WORKER_POLL_MS: "100",
  CALLBACK_BACKOFF_BASE_MS: "50",
  CALLBACK_BACKOFF_MAX_MS: "200",
  JOB_TIMEOUT_MS: "20000",
  LOG_LEVEL: "warn",
};
afterAll(() => db.$disconnect());

const get = (url: string, token?: string) =>
  fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

/** Checks METRICS_TOKEN on a process's /metrics: 401 without or with a wrong token, 200 and the text with it. */
async function expectGuarded(base: string): Promise<string> {
  const none = await get(`${base}/metrics`);
  expect(none.status).toBe(401);
  expect(none.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  expect(await none.text()).not.toMatch(/_total/);
  expect((await get(`${base}/metrics`, `${TOKEN}x`)).status).toBe(401);
  expect((await get(`${base}/metrics`, TOKEN.toUpperCase())).status).toBe(401);
  const ok = await get(`${base}/metrics`, TOKEN);
  expect(ok.status).toBe(200);
  expect(ok.headers.get("content-type")).toContain("text/plain");
  return ok.text();
}

async function stop(run: Spawned): Promise<void> {
  if (run.child.exitCode === null) run.child.kill("SIGTERM");
  await run.exited;
}

describe("the broker's /metrics and /ready", () => {
  it("are Prometheus text with the latency histograms, behind METRICS_TOKEN, and ready while its database and LISTEN are up", async () => {
    const port = await freePort();
    const run = spawnTsx("broker/index.ts", [], {
      DATABASE_URL: process.env.DATABASE_URL,
      BROKER_PORT: String(port),
      BROKER_HOST: "127.0.0.1",
      METRICS_TOKEN: TOKEN,
      LOG_LEVEL: "warn",
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      const ready = await waitForHttp(`${base}/ready`);
      expect(await ready.json()).toEqual({ ready: true, checks: { database: true, listener: true, accepting: true } });
      // A join the broker refuses is timed too, under its result.
      expect((await fetch(`${base}/join`, { method: "POST", body: "not json" })).status).toBe(400);
      const text = await expectGuarded(base);
      for (const histogram of [
        "broker_send_store_duration_seconds",
        "broker_store_batch_duration_seconds",
        "broker_store_batch_messages",
        "broker_ack_batch_acks",
        "broker_delivery_latency_seconds",
        "broker_join_duration_seconds",
      ]) {
        expect(text).toContain(`# TYPE ${histogram} histogram`);
      }
      expect(text).toMatch(/^broker_join_duration_seconds_count\{result="bad_request"\} 1$/m);
      expect(text).toMatch(/^broker_db_up 1$/m);
      expect(text).toMatch(/^broker_process_cpu_seconds_total /m);
      // /health stays as the spec fixes it.
      expect(await (await get(`${base}/health`)).json()).toMatchObject({ status: "ok", db: "up" });
    } finally {
      await stop(run);
    }
    expect(await run.exited).toBe(0);
  });
});

describe("the worker's /metrics and /ready", () => {
  it("count a job that ran, its callback attempts and the queue, behind METRICS_TOKEN", async () => {
    const platform = await startJsonPlatform({ reviews: 3 });
    const receiver = await startReceiver([503, 200]);
    const worker = await spawnWorkerProcess(settings, { ...WORKER_ENV, METRICS_TOKEN: TOKEN });
    const base = `http://127.0.0.1:${worker.port}`;
    try {
      const ready = await get(`${base}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true, checks: { database: true, queues: true, accepting: true } });
      const k = await makeKey(db, ["jobs:write"]);
      const actor: Actor = { kind: "apiKey", apiKeyId: k.id, scopes: ["jobs:write"] };
      const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
      const input = ZCreateJobInput.parse({
        requester_client_id: "acme",
        platform_id: "metrics-1",
        scraper_version: v.version,
        callback_url: receiver.url,
      });
      const { value: job } = await createJob(withActor(deps, actor), input);
      await waitFor(
        async () =>
          (await db.job.findUniqueOrThrow({ where: { id: job.id } })).callbackState === "delivered" ? true : undefined,
        30_000,
        "delivered callback",
      );
      // The delivered attempt is counted before its record is written; the run, once its slot returns.
      await waitFor(
        async () =>
          (await (await get(`${base}/metrics`, TOKEN)).text()).includes('worker_job_runs_total{outcome="succeeded"} 1')
            ? true
            : undefined,
        10_000,
        "the run counted",
      );
      const text = await expectGuarded(base);
      expect(text).toMatch(/^worker_jobs_finished_total\{state="succeeded",error_class="none"\} 1$/m);
      expect(text).toMatch(/^worker_job_runs_total\{outcome="succeeded"\} 1$/m);
      expect(text).toMatch(/^worker_job_run_duration_seconds_count\{outcome="succeeded"\} 1$/m);
      expect(text).toMatch(/^worker_callback_attempts_total\{result="retry",response="5xx"\} 1$/m);
      expect(text).toMatch(/^worker_callback_attempts_total\{result="delivered",response="2xx"\} 1$/m);
      expect(text).toMatch(/^worker_callback_duration_seconds_count\{result="delivered"\} 1$/m);
      // The gauges read this worker's queue at scrape time: nothing waits in it any more.
      expect(text).toMatch(/^worker_jobs\{state="queued"\} 0$/m);
      expect(text).toMatch(/^worker_jobs\{state="running"\} 0$/m);
      expect(text).toMatch(/^worker_queue_depth\{queue="jobs"\} 0$/m);
      expect(text).toMatch(/^worker_queue_depth\{queue="callbacks"\} 0$/m);
      expect(text).toMatch(/^worker_queue_depth\{queue="pipelines"\} 0$/m);
      expect(text).toMatch(/^worker_callbacks_pending 0$/m);
      expect(text).toMatch(/^worker_db_up 1$/m);
      expect(text).toContain("# TYPE worker_pipeline_stage_duration_seconds histogram");
    } finally {
      await stop(worker);
      await platform.close();
      await receiver.close();
    }
  });

  it("answers /ready 503 from SIGTERM on while a running job holds its shutdown, /health still 200", async () => {
    const platform = await startJsonPlatform({ hold: () => true });
    const worker = await spawnWorkerProcess(settings, WORKER_ENV);
    const base = `http://127.0.0.1:${worker.port}`;
    try {
      expect((await get(`${base}/ready`)).status).toBe(200);
      const k = await makeKey(db, ["jobs:write"]);
      const actor: Actor = { kind: "apiKey", apiKeyId: k.id, scopes: ["jobs:write"] };
      const v = await makeVersion(db, "http-json", { platformUrl: platform.url });
      await createJob(
        withActor(deps, actor),
        ZCreateJobInput.parse({ requester_client_id: "acme", platform_id: "held-1", scraper_version: v.version }),
      );
      // The worker has the job and waits on the platform, which never answers.
      await waitFor(async () => (platform.requests() > 0 ? true : undefined), 20_000, "the worker to start the job");
      worker.child.kill("SIGTERM");
      const draining = await waitForHttp(`${base}/ready`, 503, 5_000);
      expect(await draining.json()).toEqual({
        ready: false,
        checks: { database: true, queues: false, accepting: false },
      });
      // Still alive and draining: liveness is unchanged, and the process has not exited.
      expect((await get(`${base}/health`)).status).toBe(200);
      expect(worker.child.exitCode).toBeNull();
    } finally {
      // The held request fails, the run ends (queued again), and the worker exits.
      await platform.close();
      await stop(worker);
    }
    expect(await worker.exited).toBe(0);
  });
});
