/**
 * GET /api/public/stats on the production server with 100 concurrent connections (autocannon), side by
 * side with a bare route returning constant JSON in the same run. Goal: stats >= 0.7 of the bare route.
 *   npx tsx bench/public-stats.ts [seconds]
 */
import autocannon from "autocannon";
import { startBenchServer } from "./lib";

const seconds = Number(process.argv[2] ?? 10);
const server = await startBenchServer({ database: "bench_stats", readyPath: "/api/bench/bare", host: "127.0.0.1" });
const base = server.base;

function run(path: string) {
  return autocannon({ url: `${base}${path}`, connections: 100, duration: seconds, pipelining: 1 });
}

try {
  await run("/api/public/stats"); // warm-up: compiles routes, fills the cache
  const bare = await run("/api/bench/bare");
  const stats = await run("/api/public/stats");
  const trpc = await run("/api/trpc/public.stats");
  const row = (name: string, r: autocannon.Result) =>
    `${name.padEnd(20)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   errors ${r.errors + r.non2xx}`;
  console.log(`100 connections, ${seconds} s each`);
  console.log(row("bare constant JSON", bare));
  console.log(row("/api/public/stats", stats));
  console.log(row("tRPC public.stats", trpc));
  const ratio = stats.requests.average / bare.requests.average;
  console.log(`ratio stats / bare: ${ratio.toFixed(2)} (goal >= 0.70: ${ratio >= 0.7 ? "met" : "MISSED"})`);
} finally {
  await server.stop();
}
