import type PgBoss from "pg-boss";
import type { Job } from "@/generated/prisma/client";
import type { Prisma } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { enqueueCallbackAttempt } from "@/server/queue/send";
import { toBatchOut, toJobOut } from "../job-output";
import type { Tx } from "../job-states";

type Kind = "job.completed" | "job.failed" | "batch.completed";

/** The JSON body of a callback: Standard Webhooks' recommended {type, timestamp, data}. */
function body(type: Kind, data: unknown) {
  return JSON.parse(JSON.stringify({ type, timestamp: new Date().toISOString(), data })) as Prisma.InputJsonValue;
}

/**
 * Records the job's callback (job.completed or job.failed) and enqueues its first attempt in the same
 * transaction as the job's terminal state, so no callback is lost however the worker stops.
 */
export async function enqueueJobCallback(tx: Tx, boss: PgBoss, job: Job): Promise<void> {
  const jobId = job.id;
  if (!job.callbackUrl || (job.status !== "succeeded" && job.status !== "failed")) return;
  const type: Kind = job.status === "succeeded" ? "job.completed" : "job.failed";
  const out = toJobOut(job);
  const data = job.status === "failed" ? { ...out, error: { class: job.errorClass, message: job.errorMessage } } : out;
  const id = uuidv7();
  await Promise.all([
    tx.$executeRaw`
      WITH d AS (
        INSERT INTO callback_deliveries (id, webhook_id, kind, job_id, url, payload, state, next_attempt_at)
        VALUES (${id}::uuid, ${`msg_${id}`}, ${type}::callback_kind, ${jobId}::uuid, ${job.callbackUrl}, ${JSON.stringify(body(type, data))}::jsonb, 'pending', now())
        RETURNING job_id
      )
      UPDATE jobs SET callback_state = 'pending' FROM d WHERE jobs.id = d.job_id`,
    enqueueCallbackAttempt(boss, tx, id),
  ]);
}

/** Records batch.completed once per batch (unique on batch and kind) and enqueues its first attempt. */
export async function enqueueBatchCallback(tx: Tx, boss: PgBoss, batchId: string): Promise<void> {
  const batch = await tx.batch.findUniqueOrThrow({ where: { id: batchId } });
  if (!batch.callbackUrl) return;
  const id = uuidv7();
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO callback_deliveries (id, webhook_id, kind, batch_id, url, payload, state, next_attempt_at)
    VALUES (${id}::uuid, ${`msg_${id}`}, 'batch.completed', ${batchId}::uuid, ${batch.callbackUrl},
            ${JSON.stringify(body("batch.completed", toBatchOut(batch)))}::jsonb, 'pending', now())
    ON CONFLICT (batch_id, kind) DO NOTHING
    RETURNING id::text AS id`;
  if (rows.length === 0) return;
  await tx.batch.update({ where: { id: batchId }, data: { callbackState: "pending" } });
  await enqueueCallbackAttempt(boss, tx, id);
}
