/**
 * A batch of 1,000 jobs against the demo reviews platform (its own process), run by the worker's
 * loops in this process: reviews collected per second, with the http-json scraper (and, with the
 * argument `browser`, the Chromium scraper v2 on a smaller batch). Baseline in the same run: the
 * same places fetched straight from the platform's JSON API with fetch(), no queue and no database.
 *   BENCH_PG_PORT=… npx tsx bench/batch-reviews.ts [jobs=1000] [loops=8] [http-json|browser]
 */
import { spawn } from "node:child_process";
import { parseConfig } from "../src/server/core/config";
import { createDb } from "../src/server/core/db";
import { createLogger } from "../src/server/core/logger";
import { ZReviewSettings } from "../src/server/queue/settings";
import { closeScrapers } from "../src/server/scrapers";
import { sealerOf, withActor } from "../src/server/services/context";
import { createApiKey } from "../src/server/services/reviews/api-keys";
import { createBatch } from "../src/server/services/reviews/create-jobs";
import { reviewSystemContext } from "../src/server/services/reviews/system-context";
import { ZCreateBatchInput } from "../src/server/services/reviews/create-jobs.schema";
import { freePort, waitForHttp } from "../src/test/helpers";
import { startQueueWorkers } from "../src/worker/queue-workers";
import { benchDatabase } from "./lib";

const N = Number(process.argv[2] ?? 1000);
const LOOPS = Number(process.argv[3] ?? 8);
const IMPL = process.argv[4] === "browser" ? "browser-v2" : "http-json";
const LIMIT = 50;
const PLACES = 200;
const port = await freePort();
const platformUrl = `http://127.0.0.1:${port}`;
const platform = spawn(process.execPath, ["--import", "tsx", "src/demo-platform/main.ts"], {
  env: {
    ...process.env,
    DEMO_PLATFORM_PORT: String(port),
    DEMO_PLATFORM_PLACES: String(PLACES),
    DEMO_PLATFORM_RATE_PER_MINUTE: "10000000",
    DEMO_PLATFORM_RATE_CAPACITY: "1000000",
    LOG_LEVEL: "warn",
  },
  stdio: "ignore",
});
await waitForHttp(`${platformUrl}/health`);
const placeOf = (i: number) => `p-${String((i % PLACES) + 1).padStart(4, "0")}`;

// Baseline: the platform's JSON API fetched directly, LOOPS at a time.
async function baseline(): Promise<number> {
  let reviews = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: LOOPS }, async () => {
      while (next < N) {
        const i = next++;
        const res = await fetch(`${platformUrl}/api/places/${placeOf(i)}/reviews?page=1&per_page=${LIMIT}&sort=newest`);
        reviews += ((await res.json()) as { reviews: unknown[] }).reviews.length;
      }
    }),
  );
  return reviews / ((performance.now() - t0) / 1000);
}

async function product(): Promise<{ rate: number; reviews: number; failed: number }> {
  process.env.SECRETS_KEYS ??= `kbench:${Buffer.alloc(32, 3).toString("base64")}`;
  const ready = await benchDatabase("bench_batch_reviews");
  const settings = parseConfig(ZReviewSettings, {
    JOB_QUEUE: `bench-batch-${Date.now().toString(36)}`,
    DEMO_PLATFORM_URL: platformUrl,
  });
  const db = createDb(ready.url, { max: LOOPS * 2 + 4 });
  const ctx = reviewSystemContext({ db, sealer: sealerOf(process.env.SECRETS_KEYS), review: settings });
  const key = await createApiKey(ctx, { name: "bench-batch", scopes: ["jobs:write"] });
  const version = await db.scraperVersion.create({
    data: { platform: "platform", version: `bench-${Date.now().toString(36)}`, variant: "b", implementation: IMPL },
  });
  const t0 = performance.now();
  const { value: batch } = await createBatch(
    withActor(ctx, { kind: "apiKey", apiKeyId: key.id, scopes: ["jobs:write"] }),
    ZCreateBatchInput.parse({
      requester_client_id: "bench",
      jobs: Array.from({ length: N }, (_, i) => ({
        platform_id: placeOf(i),
        review_limit: LIMIT,
        scraper_version: version.version,
      })),
    }),
  );
  const workers = startQueueWorkers(ctx, { scrape: LOOPS, callbacks: 1 }, createLogger("bench", "warn"));
  for (;;) {
    const b = await db.batch.findUniqueOrThrow({ where: { id: batch.id } });
    if (b.completedAt) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const s = (performance.now() - t0) / 1000;
  const agg = await db.job.aggregate({ where: { batchId: batch.id }, _sum: { reviewCount: true } });
  const failed = await db.job.count({ where: { batchId: batch.id, status: "failed" } });
  await workers.close({ graceMs: 5_000 });
  await closeScrapers();
  await db.$disconnect();
  if (ready.embedded?.owned) await ready.embedded.stop();
  return { rate: (agg._sum.reviewCount ?? 0) / s, reviews: agg._sum.reviewCount ?? 0, failed };
}

try {
  const base = await baseline();
  console.log(`direct fetch of the JSON API: ${base.toFixed(0)} reviews/s (${N} places, ${LOOPS} at a time)`);
  const p = await product();
  console.log(
    `batch of ${N} jobs (${IMPL}, ${LOOPS} worker loops): ${p.rate.toFixed(0)} reviews/s (${p.reviews} reviews, ${p.failed} failed jobs)`,
  );
  console.log(`ratio: ${(p.rate / base).toFixed(2)} of the direct fetch`);
} finally {
  platform.kill("SIGTERM");
}
process.exit(0);
