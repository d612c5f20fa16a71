/**
 * Export of 100,000 reviews of one job over HTTP from the production server (`npm start` on bench
 * ports), as CSV and as NDJSON: rows/s and the web server's peak resident memory growth while it
 * streams, beside a bare `COPY (SELECT …) TO STDOUT` of the same rows in CSV on the same database in
 * the same run. Goals (issue 15): >= 0.5 of the COPY rate, memory growth <= 50 MB.
 *   npx tsx bench/export.ts [reviews=100000]
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { createDb } from "../src/server/core/db";
import { SYSTEM } from "../src/server/services/actor";
import { sealerOf, serviceContext } from "../src/server/services/context";
import { createApiKey } from "../src/server/services/reviews/api-keys";
import { storeJobReviews } from "../src/server/services/reviews/review-store";
import { benchDatabase, startBenchServer } from "./lib";

const N = Number(process.argv[2] ?? 100_000);
const DATABASE = "bench_export";
process.env.SECRETS_KEYS ??= `kbench:${Buffer.alloc(32, 5).toString("base64")}`;

const ready = await benchDatabase(DATABASE);
const db = createDb(ready.url, { max: 4 });
const key = await createApiKey(serviceContext(SYSTEM, { db, sealer: sealerOf(process.env.SECRETS_KEYS) }), {
  name: `bench-export-${Date.now().toString(36)}`,
  scopes: ["jobs:read"],
  rate_limit_per_minute: 100_000,
});
const job = await db.job.create({
  data: { apiKeyId: key.id, requesterClientId: "bench-export", status: "succeeded", placeId: "bench", reviewCount: N },
});
const placeKey = `bench-${job.id}`;
const words = 'the food was lovely, service a bit slow; "great" value and we\'d come back =again'.split(" ");
for (let from = 0; from < N; from += 5_000) {
  const reviews = Array.from({ length: Math.min(5_000, N - from) }, (_, k) => {
    const i = from + k;
    return {
      externalId: `r${i}`,
      author: `Author ${i % 977}`,
      rating: (i % 5) + 1,
      text: Array.from({ length: 20 + (i % 30) }, (_, w) => words[(i + w) % words.length]).join(" "),
      language: "en",
      publishedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      ownerReply: i % 7 === 0 ? "Thank you!" : null,
      // The fields beside a review, in the shares the demo platform has them.
      datePrecision: "exact" as const,
      ownerReplyAt: i % 7 === 0 ? new Date(Date.UTC(2026, 0, 2) + i * 60_000) : null,
      helpful: i % 13,
      photos: i % 7 === 3 ? [`http://127.0.0.1:1/photos/r${i}-1.jpg`] : [],
      reviewerUrl: `http://127.0.0.1:1/users/u${i % 977}`,
      reviewerReviewCount: i % 200,
      editedAt: i % 12 === 0 ? new Date(Date.UTC(2026, 1, 1) + i * 60_000) : null,
      translatedText: i % 5 === 0 ? "translated text of the review" : null,
      translatedLanguage: i % 5 === 0 ? "de" : null,
    };
  });
  await db.$transaction(
    (tx) => storeJobReviews(tx, job.id, { platform: "platform", origin: "http://127.0.0.1:1", placeKey }, reviews),
    { timeout: 120_000 },
  );
}
await db.$executeRawUnsafe("VACUUM ANALYZE reviews");
await db.$executeRawUnsafe("VACUUM ANALYZE job_reviews");
console.log(`seeded ${N.toLocaleString("en")} reviews in one job`);

/** Line feeds in a chunk (indexOf runs in native code: the reader must not be the bottleneck). */
function newlines(chunk: Uint8Array): number {
  let n = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) n++;
  return n;
}

/** The bare baseline: COPY of the same rows and columns as CSV, read to the end. */
async function copyRate(): Promise<{ rows: number; ms: number }> {
  const client = new pg.Client({ connectionString: ready.url });
  await client.connect();
  try {
    const t0 = performance.now();
    const stream = client.query(
      // The same rows and columns as the export, as PostgreSQL writes them (no guard, no date format).
      copyTo(`COPY (SELECT r.id, jr.job_id, r.external_id, r.author, r.rating, r.text, r.language, r.published_at, r.owner_reply, r.collected_at,
          r.date_precision, r.owner_reply_at, r.helpful, r.photos, r.reviewer_url, r.reviewer_review_count, r.edited_at, r.translated_text, r.translated_language
        FROM job_reviews jr JOIN reviews r ON r.id = jr.review_id WHERE jr.job_id = '${job.id}' ORDER BY jr.review_id) TO STDOUT WITH (FORMAT csv, HEADER)`),
    );
    let lines = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) lines += newlines(chunk);
    return { rows: lines - 1, ms: performance.now() - t0 };
  } finally {
    await client.end();
  }
}

/** Resident memory (bytes) of the process serving the web app: the `next` process under the server. */
function webRss(): number {
  const out = execFileSync("ps", ["-eo", "pid,rss,args"], { encoding: "utf8" });
  let best = 0;
  for (const line of out.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (m && /src\/web\/server\.ts/.test(m[3]!)) best = Math.max(best, Number(m[2]) * 1024);
  }
  return best;
}

async function exportRate(
  base: string,
  format: "csv" | "ndjson",
  encoding = "identity",
): Promise<{ rows: number; ms: number; growth: number }> {
  const before = webRss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, webRss())), 100);
  try {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/jobs/${job.id}/reviews/export?format=${format}`, {
      headers: { authorization: `Bearer ${key.key}`, "accept-encoding": encoding },
    });
    if ((res.headers.get("content-encoding") ?? "identity") !== encoding.split(",")[0])
      throw new Error(`asked for ${encoding}, got ${res.headers.get("content-encoding")}`);
    if (!res.ok || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) lines += newlines(chunk);
    const ms = performance.now() - t0;
    peak = Math.max(peak, webRss());
    return { rows: format === "csv" ? lines - 1 : lines, ms, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

const server = await startBenchServer({ database: DATABASE, readyPath: "/api/health", host: "127.0.0.1" });
try {
  if (webRss() === 0)
    throw new Error(`no web server process found in ps: ${readFileSync("/proc/self/cmdline", "utf8")}`);
  await exportRate(server.base, "csv"); // warm-up: route compiled, pools open
  await copyRate();
  const copy = await copyRate();
  const csv = await exportRate(server.base, "csv");
  const ndjson = await exportRate(server.base, "ndjson");
  const gzip = await exportRate(server.base, "csv", "gzip");
  const rate = (r: { rows: number; ms: number }) => r.rows / (r.ms / 1000);
  const row = (name: string, r: { rows: number; ms: number; growth?: number }) =>
    `${name.padEnd(34)} ${String(r.rows).padStart(8)} rows  ${(r.ms / 1000).toFixed(2).padStart(6)} s  ${Math.round(rate(r)).toLocaleString("en").padStart(9)} rows/s${r.growth === undefined ? "" : `  peak RSS growth ${(r.growth / 1048576).toFixed(1)} MB`}`;
  console.log(row("COPY … TO STDOUT (CSV, baseline)", copy));
  console.log(row("GET …/reviews/export?format=csv", csv));
  console.log(row("GET …/reviews/export?format=ndjson", ndjson));
  console.log(row("… ?format=csv, gzip (not a goal)", gzip));
  for (const [name, r] of [
    ["csv", csv],
    ["ndjson", ndjson],
  ] as const) {
    if (r.rows !== N) throw new Error(`${name}: ${r.rows} rows, expected ${N}`);
    const ratio = rate(r) / rate(copy);
    const mb = r.growth / 1048576;
    console.log(
      `${name}: ${ratio.toFixed(2)} of COPY (goal >= 0.5: ${ratio >= 0.5 ? "met" : "MISSED"}), memory growth ${mb.toFixed(1)} MB (goal <= 50 MB: ${mb <= 50 ? "met" : "MISSED"})`,
    );
  }
} finally {
  await server.stop();
  // The next run starts from the same table sizes.
  await db.job.delete({ where: { id: job.id } });
  await db.review.deleteMany({ where: { placeKey } });
  await db.$disconnect();
  if (ready.embedded?.owned) await ready.embedded.stop();
}
