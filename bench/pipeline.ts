/**
 * review-analytics over generated reviews, stages run in this process without the queue or the
 * database: reviews per second per stage, total time and peak memory, for 10,000 and 100,000 reviews.
 * Baseline in the same run: a bare pass that only cleans and tokenizes every text.
 *
 *   npx tsx bench/pipeline.ts            # both sizes, each in a fresh process (own peak memory)
 *   npx tsx bench/pipeline.ts 50000      # one size
 */
import { spawnSync } from "node:child_process";
import { aggregate } from "../src/server/pipelines/review-analytics/aggregate";
import { labelRows } from "../src/server/pipelines/review-analytics/evidence";
import { classify } from "../src/server/pipelines/review-analytics/classify";
import { generateReviews } from "../src/server/pipelines/review-analytics/generator";
import { normalize } from "../src/server/pipelines/review-analytics/normalize";
import { route } from "../src/server/pipelines/review-analytics/route";
import { synthesize } from "../src/server/pipelines/review-analytics/synthesis/synthesize";
import { cleanText, tokenize } from "../src/server/pipelines/review-analytics/text";

const GOAL_REVIEWS = 100_000;
const GOAL_SECONDS = 30;

function time<T>(fn: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}

async function one(size: number) {
  const raw = generateReviews({ count: size, seed: 1, months: 12, duplicateShare: 0.01 });
  const rate = (n: number, ms: number) => `${Math.round(n / (ms / 1000)).toLocaleString("en-US")}/s`;
  const baseline = time(() => {
    let tokens = 0;
    for (const r of raw) tokens += tokenize(cleanText(r.text)).length;
    return tokens;
  });
  const rows: [string, number, number, number][] = [];
  const n = time(() => normalize(raw));
  rows.push(["normalize", raw.length, n.value.itemsOut, n.ms]);
  const c = time(() => classify(n.value.output));
  rows.push(["classify", n.value.output.length, c.value.itemsOut, c.ms]);
  const r = time(() => route(c.value.output));
  rows.push(["route", c.value.output.length, r.value.itemsOut, r.ms]);
  // Aggregate as the pipeline runs it: with one label row per review read (the report's evidence).
  const a = time(() => {
    const out = aggregate(r.value.output, raw.length);
    return { ...out, labels: labelRows(r.value.output, raw, out.output.complaint_phrases) };
  });
  rows.push(["aggregate", r.value.output.reviews.length, a.value.itemsOut, a.ms]);
  const t0 = performance.now();
  await synthesize(a.value.output, { now: () => new Date(), labels: a.value.labels });
  rows.push(["synthesize", 1, 1, performance.now() - t0]);
  const total = rows.reduce((s, x) => s + x[3], 0);
  const peakMb = process.resourceUsage().maxRSS / 1024;

  console.log(`\nreview-analytics over ${size.toLocaleString("en-US")} generated reviews (en/es/de)`);
  console.log("stage        items in   items out   time        reviews/s");
  for (const [stage, inN, outN, ms] of rows) {
    console.log(
      `${stage.padEnd(12)} ${String(inN).padStart(8)}   ${String(outN).padStart(9)}   ${ms.toFixed(1).padStart(8)} ms  ${stage === "synthesize" ? "(one report)" : rate(inN, ms)}`,
    );
  }
  console.log(`total        ${total.toFixed(1)} ms = ${rate(raw.length, total)} end to end`);
  console.log(
    `baseline     ${baseline.ms.toFixed(1)} ms = ${rate(raw.length, baseline.ms)} (bare clean + tokenize pass)`,
  );
  console.log(`ratio        pipeline / baseline = ${(total / baseline.ms).toFixed(1)}x`);
  console.log(`peak memory  ${peakMb.toFixed(0)} MB resident (whole process, generator included)`);
  if (size === GOAL_REVIEWS)
    console.log(
      `goal         ${GOAL_REVIEWS.toLocaleString("en-US")} reviews in <= ${GOAL_SECONDS} s: ${total / 1000 <= GOAL_SECONDS ? "met" : "NOT met"} (${(total / 1000).toFixed(2)} s)`,
    );
}

const arg = process.argv[2];
if (arg) {
  await one(Number(arg));
} else {
  for (const size of [10_000, 100_000]) {
    // A fresh process per size, so peak memory belongs to that size alone.
    const child = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, String(size)], {
      stdio: "inherit",
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}
