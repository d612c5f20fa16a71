import type { Job } from "@/generated/prisma/client";
import type { Prisma } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { toBatchOut, toJobOut } from "../job-output";
import type { FirstDelivery, Tx } from "../job-states";

type Kind = "job.completed" | "job.failed" | "batch.completed";

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
 * The first delivery of a finished job's callback (job.completed or job.failed), or null when the job
 * has no callback URL. `finishJob` writes it, with its queue row, in the statement that ends the job,
 * so no callback is lost however the worker stops.
 */
export function firstJobDelivery(job: Job, startAfter: Date): FirstDelivery | null {
  if (!job.callbackUrl || (job.status !== "succeeded" && job.status !== "failed")) return null;
  const kind = job.status === "succeeded" ? "job.completed" : "job.failed";
  const out = toJobOut(job);
  const data = job.status === "failed" ? { ...out, error: { class: job.errorClass, message: job.errorMessage } } : out;
  const id = uuidv7();
  return { id, webhookId: `msg_${id}`, kind, payload: JSON.stringify(body(kind, data)), host: callbackHost(job.callbackUrl), startAfter };
}

/**
 * Records batch.completed once per batch (unique on batch and kind), due at once: the delivery row is
 * the queue entry of its first attempt. It goes on the work queue of the batch's jobs.
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
    ON CONFLICT (batch_id, kind) DO NOTHING
    RETURNING id::text AS id`;
  if (rows.length === 0) return;
  await tx.batch.update({ where: { id: batchId }, data: { callbackState: "pending" } });
}
