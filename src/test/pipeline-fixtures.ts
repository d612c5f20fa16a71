import type { Db } from "@/server/core/db";
import { generatedReviewContents } from "@/server/pipelines/review-analytics/demo-data";
import type { TReviewSettings } from "@/server/queue/settings";
import { SYSTEM, type Actor, type SystemActor } from "@/server/services/actor";
import { sealerOf, serviceContext, type ServiceContext } from "@/server/services/context";
import { reviewOnlySettings } from "@/server/services/reviews/system-context";
import { createApiKey } from "@/server/services/reviews/api-keys";
import { storeJobReviews, type ReviewContent } from "@/server/services/reviews/review-store";
import type { TApiScope } from "@/server/services/reviews/schemas";
import { uid } from "./helpers";
import { testSettings } from "./review-fixtures";

// Rows of the review engine as the pipelines read them, written directly (no worker, no queue): API
// keys, batches, finished jobs and the review versions they collected.

/** Origin of the reviews these fixtures collect (loopback: nothing is ever fetched from it). */
export const TEST_ORIGIN = "http://127.0.0.1:4200";

/**
 * A service context on the test database acting as `actor`. Executions it queues go to the work queue
 * of `review` (a test's own, which no worker of another test file takes), the process's otherwise.
 */
export function ctxOf<A extends Actor>(db: Db, actor: A, review?: TReviewSettings): ServiceContext<A> {
  const sealer = sealerOf(process.env.SECRETS_KEYS ?? "");
  return serviceContext(actor, { db, sealer, ...(review ? { settings: reviewOnlySettings(review) } : {}) });
}

/** A work queue of a test's own (no worker takes it): `ids()` lists the executions waiting in it, oldest first. */
export function testQueue(db: Db) {
  const review = testSettings();
  return { review, ids: () => queuedIds(db, { queue: review.JOB_QUEUE }) };
}

/** The context a worker runs executions in, on the test database. */
export const systemCtx = (db: Db, review?: TReviewSettings): ServiceContext<SystemActor> => ctxOf(db, SYSTEM, review);

/** Ids of the executions waiting in `queue` among `ids`, or, without ids, every one of a pipeline id list. */
export async function queuedIds(db: Db, where: { queue?: string; ids?: string[]; pipelineId?: string } = {}) {
  const rows = await db.pipelineExecution.findMany({
    where: {
      status: "queued",
      ...(where.queue ? { queue: where.queue } : {}),
      ...(where.ids ? { id: { in: where.ids } } : {}),
      ...(where.pipelineId ? { pipelineId: where.pipelineId } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** An API key made by the real service: its text (for REST), its id and the actor it acts as. */
export async function makeApiKey(db: Db, scopes: TApiScope[]) {
  const sealer = sealerOf(process.env.SECRETS_KEYS ?? "");
  const created = await createApiKey(serviceContext(SYSTEM, { db, sealer }), { name: uid("pipeline-key"), scopes });
  const actor: Actor = { kind: "apiKey", apiKeyId: created.id, scopes };
  return { id: created.id, key: created.key, actor };
}

/** A batch of a key (null: an administrator's). */
export async function makeBatch(db: Db, apiKeyId: string | null) {
  return db.batch.create({
    data: { apiKeyId, requesterClientId: uid("client"), totalJobs: 1, status: "completed" },
    select: { id: true },
  });
}

/** `count` generated reviews of a place, as a scraper would hand them over. */
export function reviewsOf(placeKey: string, count: number, seed = 7): ReviewContent[] {
  return generatedReviewContents(placeKey, { count, seed });
}

/**
 * A succeeded collection job of a key (null: an administrator's), optionally in a batch, that
 * collected `reviews` of a place (stored and linked by review-store.ts, as the engine does).
 */
export async function collectedJob(
  db: Db,
  opts: {
    apiKeyId: string | null;
    placeKey: string;
    reviews: ReviewContent[];
    origin?: string;
    placeName?: string | null;
    batchId?: string;
  },
) {
  const job = await db.job.create({
    data: {
      apiKeyId: opts.apiKeyId,
      batchId: opts.batchId ?? null,
      requesterClientId: uid("client"),
      placeId: opts.placeKey,
      placeName: opts.placeName ?? null,
      status: "succeeded",
      reviewCount: opts.reviews.length,
      finishedAt: new Date(),
    },
    select: { id: true },
  });
  await db.$transaction((tx) =>
    storeJobReviews(
      tx,
      job.id,
      { platform: "platform", origin: opts.origin ?? TEST_ORIGIN, placeKey: opts.placeKey },
      opts.reviews,
    ),
  );
  return job;
}
