import type { Db } from "../src/server/core/db";
import { demoSeedLock, lockStatement } from "../src/server/core/locks";
import { syncRegistry } from "../src/server/pipelines/registry";
import { storeGeneratedReviews } from "../src/server/pipelines/review-analytics/demo-data";
import { LEGACY_V1_EXAMPLE } from "../src/server/pipelines/review-analytics/synthesis/legacy-v1";
import { pendingMetrics } from "../src/server/pipelines/engine";
import { reviewAnalytics } from "../src/server/pipelines/review-analytics";
import { SYSTEM } from "../src/server/services/actor";
import { serviceContext, type Sealer } from "../src/server/services/context";
import { runExecution } from "../src/server/services/pipelines/run-execution";

/** The seed has no key ring, and a pipeline run seals nothing. */
const NO_SEALER: Sealer = {
  seal: () => {
    throw new Error("the seed seals nothing");
  },
  open: () => {
    throw new Error("the seed opens nothing");
  },
};

/** The demo place whose generated reviews the demo execution analyses. */
export const DEMO_PLACE = "demo-trattoria";
/** The name the demo job recorded for it (what a platform would have shown). */
export const DEMO_PLACE_NAME = "Trattoria Demo";
/** requester_client_id of the demo job that "collected" the demo reviews. */
export const DEMO_CLIENT = "demo-seed";
const DEMO_REVIEWS = 1_500;

/**
 * The succeeded demo job the generated reviews are linked to (created once, also when seeders race):
 * reviews are readable only through jobs, and this one has no API key, so administrators read it.
 */
async function demoJob(db: Db): Promise<string> {
  return db.$transaction(async (tx) => {
    const lock = lockStatement("pg_advisory_xact_lock", demoSeedLock(2));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    const existing = await tx.job.findFirst({
      where: { requesterClientId: DEMO_CLIENT, placeId: DEMO_PLACE, apiKeyId: null },
      select: { id: true },
    });
    if (existing) return existing.id;
    const now = new Date();
    const job = await tx.job.create({
      data: {
        requesterClientId: DEMO_CLIENT,
        placeId: DEMO_PLACE,
        placeName: DEMO_PLACE_NAME,
        status: "succeeded",
        reviewLimit: DEMO_REVIEWS,
        reviewCount: DEMO_REVIEWS,
        startedAt: now,
        finishedAt: now,
        durationMs: 0,
      },
      select: { id: true },
    });
    return job.id;
  });
}

/** The administrator the demo runs belong to: the first user listed in ADMIN_EMAILS (else admin@example.com), if present. */
async function demoOwner(db: Db): Promise<string | null> {
  const listed = (process.env.ADMIN_EMAILS ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  const emails = listed.length ? listed : ["admin@example.com"];
  const users = await db.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true } });
  const byEmail = new Map(users.map((u) => [u.email?.toLowerCase(), u.id]));
  return emails.map((e) => byEmail.get(e)).find((id) => id !== undefined) ?? null;
}

/**
 * Demo data of the pipelines: generated reviews of a place (en, es, de) collected by one demo job,
 * one completed review-analytics execution over them (run in this process, no queue) and one legacy
 * v1 report, both triggered by the demo administrator when there is one (administrators see every
 * run anyway), so the dashboard and the report are full right after the start command. Adds nothing
 * a second time.
 */
export async function seedPipelines(
  db: Db,
  log: (line: string) => void = () => {},
): Promise<{ reviews: number; executions: number }> {
  await syncRegistry(db);
  const jobId = await demoJob(db);
  const reviews = await storeGeneratedReviews(db, jobId, DEMO_PLACE, {
    count: DEMO_REVIEWS,
    seed: 2026,
    start: new Date("2026-01-01T00:00:00Z"),
    months: 9,
    duplicateShare: 0.02,
  });
  const triggeredByUserId = await demoOwner(db);
  // One seeder at a time decides which rows are missing (two start processes may seed at once).
  const created = await db.$transaction(async (tx) => {
    const lock = lockStatement("pg_advisory_xact_lock", demoSeedLock(1));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    const demoInput = { path: ["place_key"], equals: DEMO_PLACE };
    const ids: { legacy: boolean; queued: string | null } = { legacy: false, queued: null };
    const legacyExists = await tx.pipelineExecution.count({
      where: { pipelineId: reviewAnalytics.id, pipelineVersion: "0.9.0", input: demoInput },
    });
    if (!legacyExists) {
      await tx.pipelineExecution.create({
        data: {
          pipelineId: reviewAnalytics.id,
          pipelineVersion: "0.9.0",
          status: "succeeded",
          input: { place_key: DEMO_PLACE, to: "2025-11-30" },
          stageMetrics: {},
          synthesis: LEGACY_V1_EXAMPLE,
          totalDurationMs: 2_140,
          triggeredByUserId,
          queuedAt: new Date("2025-11-30T08:59:50Z"),
          startedAt: new Date("2025-11-30T08:59:52Z"),
          finishedAt: new Date("2025-11-30T09:00:00Z"),
          createdAt: new Date("2025-11-30T08:59:50Z"),
        },
      });
      ids.legacy = true;
    }
    const current = await tx.pipelineExecution.count({
      where: {
        pipelineId: reviewAnalytics.id,
        pipelineVersion: reviewAnalytics.version,
        status: { not: "failed" },
        input: demoInput,
      },
    });
    if (!current) {
      const row = await tx.pipelineExecution.create({
        data: {
          pipelineId: reviewAnalytics.id,
          pipelineVersion: reviewAnalytics.version,
          input: { place_key: DEMO_PLACE, max_reviews: 100_000 },
          stageMetrics: pendingMetrics(reviewAnalytics as never) as never,
          triggeredByUserId,
          // An administrator's run: it reads every job (the demo job has no API key).
          readScopeApiKeyId: null,
        },
        select: { id: true },
      });
      ids.queued = row.id;
    }
    return ids;
  });
  // Run in this process (no queue): the dashboard and report are full as soon as the app starts.
  if (created.queued) {
    await runExecution(serviceContext(SYSTEM, { db, sealer: NO_SEALER }), { executionId: created.queued });
  }
  const executions = (created.legacy ? 1 : 0) + (created.queued ? 1 : 0);
  log(
    reviews || executions
      ? `seeded ${reviews} demo reviews and ${executions} pipeline executions`
      : "pipeline demo data already present",
  );
  return { reviews, executions };
}
