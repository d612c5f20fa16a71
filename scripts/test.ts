/**
 * The one test command (`npm test`): typecheck, lint, unit tests, the sentiment model's refit check,
 * integration tests against a real PostgreSQL (a database created for the run), the production build,
 * the product as a cluster of real processes (one of each kind killed under load), then Playwright
 * against the production build of every process. Stops at the first failing step.
 */
import { labeller, runStep, bin } from "./lib/supervisor";

const log = labeller("test", 5);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const steps: { label: string; command: string; args: string[] }[] = [
  { label: "types", command: bin("tsc"), args: ["--noEmit"] },
  {
    label: "lint",
    command: bin("eslint"),
    args: ["--config", ".config/eslint.config.mjs", "--max-warnings", "0", "."],
  },
  { label: "format", command: bin("prettier"), args: ["--check", "."] },
  // No import cycles (type-only imports included), and every service called from outside its folder is fn(ctx, input).
  { label: "cycles", command: process.execPath, args: ["--import", "tsx", "scripts/lint/cycles.ts"] },
  {
    label: "shapes",
    command: process.execPath,
    args: ["--import", "tsx", "scripts/lint/service-shapes.ts", "--check"],
  },
  { label: "unit", command: bin("vitest"), args: ["run", "--config", ".config/vitest.config.ts", "--project", "unit"] },
  // The shipped sentiment model is the one its training data makes (refit with the recorded settings).
  {
    label: "model",
    command: process.execPath,
    args: ["--import", "tsx", "src/server/pipelines/review-analytics/eval/train.ts", "--check"],
  },
  {
    label: "integr",
    command: bin("vitest"),
    args: ["run", "--config", ".config/vitest.config.ts", "--project", "integration"],
  },
  // The broker's load tests, alone on the machine (.config/vitest.config.ts).
  { label: "load", command: bin("vitest"), args: ["run", "--config", ".config/vitest.config.ts", "--project", "load"] },
  { label: "build", command: bin("next"), args: ["build"] },
  // Two web processes, two brokers, two workers and the demo platform on one database, one of each
  // killed under load; then the fault suite over a PostgreSQL of its own (a broker killed with ten sends
  // in flight per peer, a worker killed twice, PostgreSQL's fast shutdown), asserting nothing lost or
  // seen twice, order per sender, takeover and recovery times (scripts/cluster). The web processes run the build just made.
  {
    label: "cluster",
    command: bin("vitest"),
    args: ["run", "--config", ".config/vitest.config.ts", "--project", "cluster"],
  },
  { label: "e2e", command: bin("playwright"), args: ["test", "--config", "e2e/playwright.config.ts"] },
];

// Counts read from the runners' summaries, for one closing "N passed, N failed" line.
const totals = { passed: 0, failed: 0 };
const countLine = (raw: string) => {
  const line = raw.replace(/\x1b\[[0-9;]*m/g, "");
  const vitest = /^\s*Tests\s+(?:(\d+) failed\s*\|\s*)?(\d+) passed/.exec(line);
  if (vitest) {
    totals.failed += Number(vitest[1] ?? 0);
    totals.passed += Number(vitest[2]);
    return;
  }
  const pw = /^\s*(\d+) (passed|failed|flaky)\b/.exec(line);
  if (pw) totals[pw[2] === "failed" ? "failed" : "passed"] += Number(pw[1]);
};

const only = process.argv.slice(2);
const started = Date.now();
for (const step of steps) {
  if (only.length && !only.includes(step.label)) continue;
  const t0 = Date.now();
  log(`── ${step.label} ──`);
  try {
    await runStep(step, env, countLine);
  } catch (error) {
    log(`FAILED at ${step.label}: ${(error as Error).message}`);
    process.stdout.write(`${totals.passed} passed, ${Math.max(totals.failed, 1)} failed\n`);
    process.exit(1);
  }
  log(`${step.label} passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
log(`all steps passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.stdout.write(`${totals.passed} passed, ${totals.failed} failed\n`);
