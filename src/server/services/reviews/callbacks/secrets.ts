import type { CallbackDelivery } from "@/generated/prisma/client";
import { TtlCache } from "@/server/core/ttl-cache";
import type { Db } from "@/server/core/db";
import type { Sealer } from "../../context";

/** Additional data binding a sealed secret to its row, so a sealed value cannot be moved to another row. */
export const secretAad = {
  job: (id: string) => `job-callback-secret:${id}`,
  batch: (id: string) => `batch-callback-secret:${id}`,
  apiKey: (id: string) => `api-key-callback-secret:${id}`,
};

// Opened secrets by their sealed text: a delivery costs no AES work once its owner's secret was seen.
const opened = new TtlCache<string, string>({ maxEntries: 10_000, ttlMs: Infinity });
function openCached(sealer: Sealer, sealed: string, aad: string): string {
  const key = `${aad}|${sealed}`;
  let value = opened.get(key);
  if (value === undefined) {
    value = sealer.open(sealed, aad).toString("utf8");
    opened.set(key, value);
  }
  return value;
}

/** The secret that signs a job's callbacks: the job's own, else its API key's; null when neither has one. */
export function jobCallbackSecret(
  sealer: Sealer,
  job: { id: string; callbackSecretEnc: string | null; apiKeyId: string | null },
  apiKeySecretEnc: string | null,
): string | null {
  if (job.callbackSecretEnc) return openCached(sealer, job.callbackSecretEnc, secretAad.job(job.id));
  if (!job.apiKeyId || !apiKeySecretEnc) return null;
  return openCached(sealer, apiKeySecretEnc, secretAad.apiKey(job.apiKeyId));
}

/** The secret that signs a delivery from its owner's sealed columns: the job's or batch's own, else its API key's. */
export function secretOfOwner(
  sealer: Sealer,
  o: {
    jobId: string | null;
    batchId: string | null;
    jobSecretEnc: string | null;
    batchSecretEnc: string | null;
    apiKeyId: string | null;
    keySecretEnc: string | null;
  },
): string | null {
  if (o.jobId && o.jobSecretEnc) return openCached(sealer, o.jobSecretEnc, secretAad.job(o.jobId));
  if (!o.jobId && o.batchId && o.batchSecretEnc)
    return openCached(sealer, o.batchSecretEnc, secretAad.batch(o.batchId));
  if (!o.apiKeyId || !o.keySecretEnc) return null;
  return openCached(sealer, o.keySecretEnc, secretAad.apiKey(o.apiKeyId));
}

/** The secret that signs a delivery: the job's or batch's own, else its API key's (one query). */
export async function callbackSecretFor(
  { db, sealer }: { db: Db; sealer: Sealer },
  d: Pick<CallbackDelivery, "jobId" | "batchId">,
): Promise<string | null> {
  if (!d.jobId && !d.batchId) return null;
  const select = {
    id: true,
    callbackSecretEnc: true,
    apiKeyId: true,
    apiKey: { select: { callbackSecretEnc: true } },
  } as const;
  if (d.jobId) {
    const job = await db.job.findUnique({ where: { id: d.jobId }, select });
    return job ? jobCallbackSecret(sealer, job, job.apiKey?.callbackSecretEnc ?? null) : null;
  }
  const batch = await db.batch.findUnique({ where: { id: d.batchId as string }, select });
  if (!batch) return null;
  if (batch.callbackSecretEnc) return openCached(sealer, batch.callbackSecretEnc, secretAad.batch(batch.id));
  if (!batch.apiKeyId || !batch.apiKey?.callbackSecretEnc) return null;
  return openCached(sealer, batch.apiKey.callbackSecretEnc, secretAad.apiKey(batch.apiKeyId));
}
