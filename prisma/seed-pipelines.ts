import type { Db } from "../src/server/core/db";
import { syncRegistry } from "../src/server/pipelines/registry";
import { insertGeneratedReviews } from "../src/server/pipelines/review-analytics/demo-data";
import { LEGACY_V1_EXAMPLE } from "../src/server/pipelines/review-analytics/synthesis/legacy-v1";
import { pendingMetrics } from "../src/server/pipelines/engine";
import { reviewAnalytics } from "../src/server/pipelines/review-analytics";
import { runExecution } from "../src/server/services/pipelines/run-execution";

/** The demo place whose generated reviews the demo execution analyses. */
export const DEMO_PLACE = "demo-trattoria";
const DEMO_REVIEWS = 1_500;

/**
 * Demo data of the pipelines: generated reviews of a place (en, es, de), one completed
 * review-analytics execution over them (run in this process, no queue) and one legacy v1 report, so
 * the dashboard and the report are full right after the start command. Adds nothing a second time.
 */
export async function seedPipelines(db: Db, log: (line: string) => void = () => {}): Promise<{ reviews: number; executions: number }> {
  await syncRegistry(db);
  const reviews = await insertGeneratedReviews(db, DEMO_PLACE, { count: DEMO_REVIEWS, seed: 2026, start: new Date("2026-01-01T00:00:00Z"), months: 9, duplicateShare: 0.02 });
  // One seeder at a time decides which rows are missing (two start processes may seed at once).
  const created = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(7207, 1)`;
    const demoInput = { path: ["place_key"], equals: DEMO_PLACE };
    const ids: { legacy: boolean; queued: string | null } = { legacy: false, queued: null };
    const legacyExists = await tx.pipelineExecution.count({ where: { pipelineId: reviewAnalytics.id, pipelineVersion: "0.9.0", input: demoInput } });
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
          queuedAt: new Date("2025-11-30T08:59:50Z"),
          startedAt: new Date("2025-11-30T08:59:52Z"),
          finishedAt: new Date("2025-11-30T09:00:00Z"),
          createdAt: new Date("2025-11-30T08:59:50Z"),
        },
      });
      ids.legacy = true;
    }
    const current = await tx.pipelineExecution.count({
      where: { pipelineId: reviewAnalytics.id, pipelineVersion: reviewAnalytics.version, status: { not: "failed" }, input: demoInput },
    });
    if (!current) {
      const row = await tx.pipelineExecution.create({
        data: {
          pipelineId: reviewAnalytics.id,
          pipelineVersion: reviewAnalytics.version,
          input: { place_key: DEMO_PLACE, max_reviews: 100_000 },
          stageMetrics: pendingMetrics(reviewAnalytics as never) as never,
        },
        select: { id: true },
      });
      ids.queued = row.id;
    }
    return ids;
  });
  // Run in this process (no queue): the dashboard and report are full as soon as the app starts.
  if (created.queued) await runExecution({ db }, created.queued);
  const executions = (created.legacy ? 1 : 0) + (created.queued ? 1 : 0);
  log(reviews || executions ? `seeded ${reviews} demo reviews and ${executions} pipeline executions` : "pipeline demo data already present");
  return { reviews, executions };
}
