import type { CallbackDelivery } from "@/generated/prisma/client";
import type { ReviewDeps } from "../deps";

/** Additional data binding a sealed secret to its row, so a sealed value cannot be moved to another row. */
export const secretAad = {
  job: (id: string) => `job-callback-secret:${id}`,
  batch: (id: string) => `batch-callback-secret:${id}`,
  apiKey: (id: string) => `api-key-callback-secret:${id}`,
};

// Opened secrets by their sealed text: a delivery costs no AES work once its owner's secret was seen.
const opened = new Map<string, string>();
function openCached(deps: ReviewDeps, sealed: string, aad: string): string {
  const key = `${aad}|${sealed}`;
  let value = opened.get(key);
  if (value === undefined) {
    value = deps.sealer.open(sealed, aad).toString("utf8");
    if (opened.size > 10_000) opened.clear();
    opened.set(key, value);
  }
  return value;
}

/** The secret that signs a delivery: the job's or batch's own, else its API key's (one query). */
export async function callbackSecretFor(deps: ReviewDeps, d: Pick<CallbackDelivery, "jobId" | "batchId">): Promise<string | null> {
  if (!d.jobId && !d.batchId) return null;
  const select = { id: true, callbackSecretEnc: true, apiKeyId: true, apiKey: { select: { callbackSecretEnc: true } } } as const;
  const owner = d.jobId
    ? await deps.db.job.findUnique({ where: { id: d.jobId }, select })
    : await deps.db.batch.findUnique({ where: { id: d.batchId as string }, select });
  if (!owner) return null;
  if (owner.callbackSecretEnc) return openCached(deps, owner.callbackSecretEnc, d.jobId ? secretAad.job(owner.id) : secretAad.batch(owner.id));
  if (!owner.apiKeyId || !owner.apiKey?.callbackSecretEnc) return null;
  return openCached(deps, owner.apiKey.callbackSecretEnc, secretAad.apiKey(owner.apiKeyId));
}
