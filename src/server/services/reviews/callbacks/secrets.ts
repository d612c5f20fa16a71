import type { CallbackDelivery } from "@/generated/prisma/client";
import type { ReviewDeps } from "../deps";

/** Additional data binding a sealed secret to its row, so a sealed value cannot be moved to another row. */
export const secretAad = {
  job: (id: string) => `job-callback-secret:${id}`,
  batch: (id: string) => `batch-callback-secret:${id}`,
  apiKey: (id: string) => `api-key-callback-secret:${id}`,
};

/** The secret that signs a delivery: the job's or batch's own, else its API key's. */
export async function callbackSecretFor(deps: ReviewDeps, d: Pick<CallbackDelivery, "jobId" | "batchId">): Promise<string | null> {
  if (!d.jobId && !d.batchId) return null;
  const owner = d.jobId
    ? await deps.db.job.findUnique({ where: { id: d.jobId }, select: { id: true, callbackSecretEnc: true, apiKeyId: true, batchId: true } })
    : await deps.db.batch.findUnique({ where: { id: d.batchId as string }, select: { id: true, callbackSecretEnc: true, apiKeyId: true } });
  if (!owner) return null;
  if (owner.callbackSecretEnc) return deps.sealer.open(owner.callbackSecretEnc, d.jobId ? secretAad.job(owner.id) : secretAad.batch(owner.id)).toString("utf8");
  if (!owner.apiKeyId) return null;
  const key = await deps.db.apiKey.findUnique({ where: { id: owner.apiKeyId }, select: { callbackSecretEnc: true } });
  return key?.callbackSecretEnc ? deps.sealer.open(key.callbackSecretEnc, secretAad.apiKey(owner.apiKeyId)).toString("utf8") : null;
}
