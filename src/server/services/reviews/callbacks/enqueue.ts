import type PgBoss from "pg-boss";
import type { Prisma } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { enqueueCallbackAttempt } from "@/server/queue/send";
import { toBatchOut, toJobOut } from "../job-output";
import type { Tx } from "../job-states";

type Kind = "job.completed" | "job.failed" | "batch.completed";
const KIND = { "job.completed": "job_completed", "job.failed": "job_failed", "batch.completed": "batch_completed" } as const;

/** The JSON body of a callback: Standard Webhooks' recommended {type, timestamp, data}. */
function body(type: Kind, data: unknown) {
  return JSON.parse(JSON.stringify({ type, timestamp: new Date().toISOString(), data })) as Prisma.InputJsonValue;
}

/**
 * Records the job's callback (job.completed or job.failed) and enqueues its first attempt in the same
 * transaction as the job's terminal state, so no callback is lost however the worker stops.
 */
export async function enqueueJobCallback(tx: Tx, boss: PgBoss, jobId: string): Promise<void> {
  const job = await tx.job.findUniqueOrThrow({ where: { id: jobId } });
  if (!job.callbackUrl || (job.status !== "succeeded" && job.status !== "failed")) return;
  const type: Kind = job.status === "succeeded" ? "job.completed" : "job.failed";
  const out = toJobOut(job);
  const data = job.status === "failed" ? { ...out, error: { class: job.errorClass, message: job.errorMessage } } : out;
  const id = uuidv7();
  await tx.callbackDelivery.create({
    data: { id, webhookId: `msg_${id}`, kind: KIND[type], jobId, url: job.callbackUrl, payload: body(type, data), nextAttemptAt: new Date() },
  });
  await tx.job.update({ where: { id: jobId }, data: { callbackState: "pending" } });
  await enqueueCallbackAttempt(boss, tx, id);
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
