import type { Prisma as P } from "@/generated/prisma/client";
import { Prisma, sqlRows } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { pendingMetrics } from "@/server/pipelines/engine";
import { reviewAnalytics } from "@/server/pipelines/review-analytics";
import type { PipelineDefinition } from "@/server/pipelines/types";

/**
 * Queues a review-analytics run over a batch that just ended, when the batch is a schedule's slot and
 * the schedule analyses after each run (`analyse_after_run`): in the transaction that ends the batch, so
 * a worker dying there loses neither. The run belongs to the schedule's API key (its read scope), or is an
 * administrator's run for a schedule made in the pages, and reads exactly that batch's reviews (the new and
 * changed reviews of a `new_only` slot, and those it saw again). It is not held to the per-principal limit
 * of runs at once: the schedule's cadence bounds it. Returns the execution's id, or null.
 */
export async function queueScheduleAnalysis(tx: P.TransactionClient, batchId: string): Promise<string | null> {
  const def = reviewAnalytics as unknown as PipelineDefinition;
  const id = uuidv7();
  const rows = await sqlRows<{ id: string }>(
    tx,
    Prisma.sql`
    WITH p AS (
      INSERT INTO pipelines (id, name, description, version, updated_at)
      VALUES (${def.id}, ${def.name}, ${def.description}, ${def.version}, now())
      ON CONFLICT (id) DO NOTHING
    )
    INSERT INTO pipeline_executions (id, pipeline_id, pipeline_version, status, input, stage_metrics, triggered_by_api_key_id,
      read_scope_api_key_id, queue)
    SELECT ${id}::uuid, ${def.id}, ${def.version}, 'queued', jsonb_build_object('batch_ids', jsonb_build_array(b.id::text)),
      ${JSON.stringify(pendingMetrics(def))}::jsonb, s.api_key_id, s.api_key_id, s.queue
    FROM batches b JOIN schedules s ON s.id = b.schedule_id
    WHERE b.id = ${batchId}::uuid AND s.analyse_after_run AND b.status = 'completed'
    RETURNING id::text`,
  );
  return rows[0]?.id ?? null;
}
