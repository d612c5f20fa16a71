import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { ReviewDeps } from "../deps";
import { DestinationRefused, resolveDestination } from "./destination";
import { backoffMs, verdictOf } from "./schedule";
import { signedHeaders } from "./signing";
import { enqueueCallbackAttempt } from "@/server/queue/send";
import { callbackSecretFor } from "./secrets";

interface AttemptResult {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** POSTs one signed body to the resolved address (the name is not resolved again: no DNS rebinding). */
async function post(url: URL, headers: Record<string, string>, body: string, timeoutMs: number, allowPrivate: boolean): Promise<AttemptResult> {
  const started = Date.now();
  let target: { address: string; family: 4 | 6 };
  try {
    target = await resolveDestination(url, allowPrivate);
  } catch (error) {
    const reason = error instanceof DestinationRefused ? error.reason : "unresolvable";
    return { status: null, error: `destination_refused:${reason}`, durationMs: Date.now() - started };
  }
  const pinned: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  return new Promise<AttemptResult>((resolve) => {
    const lib = url.protocol === "https:" ? https : http;
    const req = lib.request(
      url,
      {
        method: "POST",
        lookup: pinned,
        timeout: timeoutMs,
        headers: { "content-type": "application/json", "user-agent": "review-mesh-callbacks/1", "content-length": Buffer.byteLength(body), ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? null, error: null, durationMs: Date.now() - started }));
        res.on("error", () => resolve({ status: res.statusCode ?? null, error: null, durationMs: Date.now() - started }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (err) => resolve({ status: null, error: err.message === "timeout" ? "timeout" : "network", durationMs: Date.now() - started }));
    req.end(body);
  });
}

/**
 * One delivery attempt of a callback (a callback queue job): signs and POSTs it, records the
 * attempt, and either marks the delivery delivered/failed or enqueues the next attempt after the
 * backoff, all in one transaction. A delivery that is no longer pending is left alone.
 */
export async function attemptDelivery(deps: ReviewDeps, deliveryId: string, now: () => Date = () => new Date()): Promise<string> {
  const s = deps.settings;
  const delivery = await deps.db.callbackDelivery.findUnique({ where: { id: deliveryId } });
  if (!delivery || delivery.state !== "pending") return "skipped";
  const secret = await callbackSecretFor(deps, delivery);
  const attempt = delivery.attempts + 1;
  const text = JSON.stringify(delivery.payload);
  let result: AttemptResult;
  if (!secret) result = { status: null, error: "no_signing_secret", durationMs: 0 };
  else {
    const ts = Math.floor(now().getTime() / 1000);
    result = await post(new URL(delivery.url), signedHeaders(secret, delivery.webhookId, ts, text), text, s.CALLBACK_TIMEOUT_MS, s.CALLBACK_ALLOW_PRIVATE);
  }
  let verdict = verdictOf(result.status);
  if (result.error?.startsWith("destination_refused") || result.error === "no_signing_secret") verdict = "stop";
  const at = now();
  const tooOld = at.getTime() - delivery.createdAt.getTime() >= s.CALLBACK_MAX_AGE_MS;
  const state = verdict === "delivered" ? "delivered" : verdict === "stop" || tooOld ? "failed" : "pending";
  const next = state === "pending" ? new Date(at.getTime() + backoffMs(attempt, s.CALLBACK_BACKOFF_BASE_MS, s.CALLBACK_BACKOFF_MAX_MS, deps.random)) : null;
  const boss = await deps.boss();
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.callbackDelivery.updateMany({
      where: { id: deliveryId, state: "pending", attempts: delivery.attempts },
      data: {
        attempts: attempt,
        state,
        lastStatusCode: result.status,
        lastError: result.error,
        nextAttemptAt: next,
        deliveredAt: state === "delivered" ? at : null,
      },
    });
    if (count === 0) return; // another run of this attempt got there first
    await tx.callbackAttempt.create({ data: { deliveryId, attempt, statusCode: result.status, error: result.error, durationMs: result.durationMs } });
    const mirror = { callbackState: state, callbackAttempts: attempt, callbackLastStatus: result.status, callbackLastError: result.error, callbackDeliveredAt: state === "delivered" ? at : null } as const;
    if (delivery.jobId) await tx.job.update({ where: { id: delivery.jobId }, data: mirror });
    if (delivery.batchId) await tx.batch.update({ where: { id: delivery.batchId }, data: { callbackState: state } });
    if (next) await enqueueCallbackAttempt(boss, tx, deliveryId, next);
  });
  return state;
}
