/**
 * Jobs end to end with the no-op scraper (create over the service, the product's own queue, states,
 * one signed callback per job to one local receiver, with the default CALLBACK_MAX_PER_HOST) beside
 * the bare queue: pipeline executions on the same claim mechanism (FOR UPDATE SKIP LOCKED takes into
 * the worker's slots) with a run that does nothing, in the same run, with the same number of worker
 * loops and the same polling. Goal: at least 0.8 of the baseline. (Until pg-boss left the product the
 * baseline was pg-boss's own no-op throughput; docs/pipelines.md, "Queue", keeps the last figures of both.)
 *   BENCH_PG_PORT=… npx tsx bench/jobs.ts [jobs=10000] [loops=16]
 */
import { parseConfig } from "../src/server/core/config";
import { createDb } from "../src/server/core/db";
import { createLogger } from "../src/server/core/logger";
import { syncRegistry } from "../src/server/pipelines/registry";
import { ZReviewSettings } from "../src/server/queue/settings";
import { createApiKey } from "../src/server/services/reviews/api-keys";
import { createJob } from "../src/server/services/reviews/create-jobs";
import { sealerOf, withActor } from "../src/server/services/context";
import { reviewSystemContext } from "../src/server/services/reviews/system-context";
import { ZCreateJobInput } from "../src/server/services/reviews/create-jobs.schema";
import { takeExecutions, type ClaimedExecution } from "../src/server/services/pipelines/take-executions";
import { startQueueWorkers } from "../src/worker/queue-workers";
import { startSlots } from "../src/worker/slots";
import { startReceiver } from "../src/test/review-fixtures";
import { CpuWindow, ownCpuSeconds, postmasterPidOf, treeCpuSeconds } from "./cpu";
import { benchDatabase } from "./lib";

const N = Number(process.argv[2] ?? 10_000);
const LOOPS = Number(process.argv[3] ?? 16);
const SUBMITTERS = 16;
const ready = await benchDatabase("bench_jobs");
const url = ready.url;
const stamp = Date.now().toString(36);
process.env.SECRETS_KEYS ??= `kbench:${Buffer.alloc(32, 3).toString("base64")}`;

/** Transactions the database has committed or rolled back (each statement outside a transaction is one). */
async function transactions(): Promise<number> {
  await new Promise((r) => setTimeout(r, 1_200)); // the server publishes its counters about once a second
  const db = createDb(url, { max: 1 });
  const [row] = await db.$queryRaw<
    { n: bigint }[]
  >`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`;
  await db.$disconnect();
  return Number(row?.n ?? 0);
}

async function pool(n: number, width: number, fn: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

// 1. Baseline: the bare queue. N pipeline executions inserted one per statement (as the execute
// service does), taken by LOOPS slots with the worker's take (one statement claims as many as there
// are free slots) and ended by a run that does nothing but store the end, guarded on its run.
async function baseline(): Promise<number> {
  const db = createDb(url, { max: LOOPS + SUBMITTERS + 2 });
  await syncRegistry(db);
  const review = parseConfig(ZReviewSettings, { JOB_QUEUE: `bench-base-${stamp}` });
  const ctx = reviewSystemContext({ db, sealer: sealerOf(process.env.SECRETS_KEYS ?? ""), review });
  let done = 0;
  let finished!: () => void;
  const all = new Promise<void>((r) => (finished = r));
  const slots = startSlots<ClaimedExecution>(
    {
      name: "bench",
      take: async (n) => (await takeExecutions(ctx, { limit: n, leaseMs: 60_000 })).claimed,
      run: async (run) => {
        await db.pipelineExecution.updateMany({
          where: { id: run.id, runs: run.runs },
          data: { status: "succeeded", leaseUntil: null, finishedAt: new Date() },
        });
        done += 1;
        if (done === N) finished();
      },
    },
    LOOPS,
    500,
    createLogger("bench", "warn"),
  );
  const t0 = performance.now();
  await pool(N, SUBMITTERS, (i) =>
    db.pipelineExecution.create({
      data: { pipelineId: "review-analytics", pipelineVersion: "bench", input: { i }, queue: review.JOB_QUEUE },
      select: { id: true },
    }),
  );
  await all;
  const s = (performance.now() - t0) / 1000;
  await slots.stop(5_000);
  await db.$disconnect();
  return N / s;
}

// 2. The product: createJob with a callback URL per job, the worker's loops, callbacks delivered.
async function endToEnd(): Promise<{ rate: number; callbacks: number }> {
  const settings = parseConfig(ZReviewSettings, {
    JOB_QUEUE: `bench-e2e-${stamp}`,
    CALLBACK_ALLOW_PRIVATE: "1",
    WORKER_POLL_MS: "500",
  });
  const db = createDb(url, { max: LOOPS * 2 + SUBMITTERS });
  const ctx = reviewSystemContext({ db, sealer: sealerOf(process.env.SECRETS_KEYS ?? ""), review: settings });
  const receiver = await startReceiver([200]);
  const key = await createApiKey(ctx, { name: `bench-${stamp}`, scopes: ["jobs:write"] });
  const version = await db.scraperVersion.create({
    data: { platform: "platform", version: `bench-${stamp}`, variant: "noop", implementation: "noop" },
  });
  const actor = { kind: "apiKey" as const, apiKeyId: key.id, scopes: ["jobs:write"] };
  const workers = startQueueWorkers(ctx, { scrape: LOOPS, callbacks: LOOPS }, createLogger("bench", "warn"));
  const t0 = performance.now();
  await pool(N, SUBMITTERS, () =>
    createJob(
      withActor(ctx, actor),
      ZCreateJobInput.parse({
        requester_client_id: "bench",
        platform_id: "p-1",
        scraper_version: version.version,
        callback_url: receiver.url,
      }),
    ),
  );
  while (receiver.received.length < N) await new Promise((r) => setTimeout(r, 100));
  const s = (performance.now() - t0) / 1000;
  const delivered = await db.job.count({
    where: { apiKeyId: key.id, status: "succeeded", callbackState: "delivered" },
  });
  await workers.close({ graceMs: 5_000 });
  await receiver.close();
  await db.$disconnect();
  return { rate: N / s, callbacks: delivered };
}

const t0 = await transactions();
const base = await baseline();
const t2 = await transactions();
console.log(
  `bare queue baseline (pipeline executions, no-op run): ${base.toFixed(0)} executions/s (${N}, ${LOOPS} slots; ${((t2 - t0) / N).toFixed(1)} transactions per execution)`,
);
// Which side the end-to-end run keeps busy: PostgreSQL, or this process (the web's and worker's work).
const pidDb = createDb(url, { max: 1 });
const pgPid = await postmasterPidOf(pidDb);
await pidDb.$disconnect();
const cpu = new CpuWindow({
  postgres: () => (pgPid ? treeCpuSeconds(pgPid) : Number.NaN),
  "submitters and worker": ownCpuSeconds,
});
cpu.start();
const e2e = await endToEnd();
cpu.end();
const t3 = await transactions();
console.log(
  `end to end (create, queue, states, signed callback): ${e2e.rate.toFixed(0)} jobs/s (${e2e.callbacks} jobs succeeded with callback delivered; ${((t3 - t2) / N).toFixed(1)} transactions per job); CPU: ${cpu.describe()}`,
);
console.log(`ratio: ${(e2e.rate / base).toFixed(2)} of the bare queue (goal ≥ 0.8)`);
if (ready.embedded?.owned) await ready.embedded.stop();
process.exit(0);
