import type { Job } from "@/generated/prisma/client";
import type { Prisma } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { toBatchOut, toJobOut } from "../job-output";
import type { FirstDelivery, Tx } from "../job-states";

type Kind = "job.completed" | "job.failed" | "job.cancelled" | "batch.completed";

/** The JSON body of a callback: Standard Webhooks' recommended {type, timestamp, data}. */
function body(type: Kind, data: unknown) {
  return JSON.parse(JSON.stringify({ type, timestamp: new Date().toISOString(), data })) as Prisma.InputJsonValue;
}

/** host[:port] of a callback URL in lower case: the key of the per-host bound on attempts at once. */
export function callbackHost(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return "";
  }
}

/**
 * The first delivery of a finished job's callback (job.completed, job.failed or job.cancelled), or null when the job
 * has no callback URL. `finishJob` writes it, with its queue row, in the statement that ends the job,
 * so no callback is lost however the worker stops.
 */
export function firstJobDelivery(job: Job, startAfter: Date): FirstDelivery | null {
  if (!job.callbackUrl || (job.status !== "succeeded" && job.status !== "failed" && job.status !== "cancelled"))
    return null;
  const kind = job.status === "succeeded" ? "job.completed" : job.status === "failed" ? "job.failed" : "job.cancelled";
  const out = toJobOut(job);
  const data =
    job.status === "succeeded" ? out : { ...out, error: { class: job.errorClass, message: job.errorMessage } };
  const id = uuidv7();
  return {
    id,
    webhookId: `msg_${id}`,
    kind,
    payload: JSON.stringify(body(kind, data)),
    host: callbackHost(job.callbackUrl),
    startAfter,
  };
}

/**
 * Records batch.completed, due at once: the delivery row is the queue entry of its first attempt. It
 * goes on the work queue of the batch's jobs. Called once each time the batch ends (endBatch's guarded
 * update lets one caller through); a batch opened again by a retried job sends it again when it ends.
 */
export async function enqueueBatchCallback(tx: Tx, batchId: string): Promise<void> {
  const batch = await tx.batch.findUniqueOrThrow({ where: { id: batchId } });
  if (!batch.callbackUrl) return;
  const id = uuidv7();
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO callback_deliveries (id, webhook_id, kind, queue, host, batch_id, url, payload, state, next_attempt_at)
    VALUES (${id}::uuid, ${`msg_${id}`}, 'batch.completed',
            COALESCE((SELECT queue FROM jobs WHERE batch_id = ${batchId}::uuid LIMIT 1), 'default'), ${callbackHost(batch.callbackUrl)},
            ${batchId}::uuid, ${batch.callbackUrl}, ${JSON.stringify(body("batch.completed", toBatchOut(batch)))}::jsonb, 'pending', now() AT TIME ZONE 'UTC')
    RETURNING id::text AS id`;
  if (rows.length === 0) return;
  await tx.batch.update({ where: { id: batchId }, data: { callbackState: "pending" } });
}
