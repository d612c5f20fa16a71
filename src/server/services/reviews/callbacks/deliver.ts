import type { CallbackDelivery } from "@/generated/prisma/client";
import { Prisma, sqlRows } from "@/server/core/db";
import { OutboundError, outboundRequest } from "@/server/core/outbound/request";
import type { ReviewDeps } from "../deps";
import { backoffMs, verdictOf } from "./schedule";
import { callbackSecretFor } from "./secrets";
import { signedHeaders } from "./signing";

/** The most of a receiver's answer that is read; the rest is cut, and the attempt counts as answered. */
export const CALLBACK_MAX_RESPONSE_BYTES = 64 * 1024;

interface AttemptResult {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * POSTs one signed body under the outbound guard (core/outbound): the name resolved once and every
 * address checked, the connection pinned to the checked address, one deadline (CALLBACK_TIMEOUT_MS)
 * from the lookup to the answer's last byte whatever the receiver drips, the answer cut at 64 KiB.
 */
async function post(url: URL, headers: Record<string, string>, body: string, timeoutMs: number, allowPrivate: boolean): Promise<AttemptResult> {
  const started = Date.now();
  try {
    const res = await outboundRequest(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "review-mesh-callbacks/1", ...headers },
      body,
      deadlineMs: timeoutMs,
      maxResponseBytes: CALLBACK_MAX_RESPONSE_BYTES,
      overflow: "truncate",
      allowPrivate,
    });
    return { status: res.status, error: null, durationMs: Date.now() - started };
  } catch (error) {
    const e = error instanceof OutboundError ? error : null;
    const text = e?.code === "refused" ? `destination_refused:${e.detail ?? "address"}` : e?.code === "timeout" ? "timeout" : "network";
    return { status: null, error: text, durationMs: Date.now() - started };
  }
}

/** What an attempt needs of a delivery row. */
export type DeliveryToAttempt = Pick<CallbackDelivery, "id" | "webhookId" | "url" | "payload" | "attempts" | "createdAt">;

/**
 * One delivery attempt by id (tests, tools): reads the delivery and its signing secret, then attempts
 * it (see `attemptLoaded`). A delivery that is no longer pending is left alone.
 */
export async function attemptDelivery(deps: ReviewDeps, deliveryId: string, now: () => Date = () => new Date()): Promise<string> {
  const delivery = await deps.db.callbackDelivery.findUnique({ where: { id: deliveryId } });
  if (!delivery || delivery.state !== "pending") return "skipped";
  return attemptLoaded(deps, delivery, await callbackSecretFor(deps, delivery), now);
}

/**
 * Signs and POSTs one attempt of a delivery, then records it in one statement: the attempt, the
 * delivery's new state and the due time of its next attempt (after the backoff; none when delivered
 * or given up), and the job's or batch's mirror of it. Guarded on the attempt count, so two runs of
 * one attempt (a lease that passed while the first was still trying) record it once. `onAnswered`
 * runs as soon as the exchange with the receiver is over, before the record (it frees the host's slot).
 */
export async function attemptLoaded(
  deps: ReviewDeps,
  delivery: DeliveryToAttempt,
  secret: string | null,
  now: () => Date = () => new Date(),
  onAnswered: () => void = () => {},
): Promise<string> {
  const s = deps.settings;
  const attempt = delivery.attempts + 1;
  const text = JSON.stringify(delivery.payload);
  let result: AttemptResult;
  try {
    if (!secret) result = { status: null, error: "no_signing_secret", durationMs: 0 };
    else {
      const ts = Math.floor(now().getTime() / 1000);
      result = await post(new URL(delivery.url), signedHeaders(secret, delivery.webhookId, ts, text), text, s.CALLBACK_TIMEOUT_MS, s.CALLBACK_ALLOW_PRIVATE);
    }
  } finally {
    onAnswered();
  }
  let verdict = verdictOf(result.status);
  if (result.error?.startsWith("destination_refused") || result.error === "no_signing_secret") verdict = "stop";
  const at = now();
  const tooOld = at.getTime() - delivery.createdAt.getTime() >= s.CALLBACK_MAX_AGE_MS;
  const state = verdict === "delivered" ? "delivered" : verdict === "stop" || tooOld ? "failed" : "pending";
  const next = state === "pending" ? new Date(at.getTime() + backoffMs(attempt, s.CALLBACK_BACKOFF_BASE_MS, s.CALLBACK_BACKOFF_MAX_MS, deps.random)) : null;
  await sqlRows(
    deps.db,
    Prisma.sql`
    WITH d AS (
      UPDATE callback_deliveries SET attempts = ${attempt}::int, state = ${state}::callback_state, last_status_code = ${result.status}::int,
        last_error = ${result.error}::text, next_attempt_at = ${next}::timestamptz AT TIME ZONE 'UTC',
        delivered_at = ${state === "delivered" ? at : null}::timestamptz AT TIME ZONE 'UTC'
      WHERE id = ${delivery.id}::uuid AND state = 'pending' AND attempts = ${delivery.attempts}::int
      RETURNING id, job_id, batch_id
    ), a AS (
      INSERT INTO callback_attempts (delivery_id, attempt, status_code, error, duration_ms)
      SELECT id, ${attempt}::int, ${result.status}::int, ${result.error}::text, ${result.durationMs}::int FROM d
    ), j AS (
      UPDATE jobs SET callback_state = ${state}::callback_state, callback_attempts = ${attempt}::int, callback_last_status = ${result.status}::int,
        callback_last_error = ${result.error}::text, callback_delivered_at = ${state === "delivered" ? at : null}::timestamptz AT TIME ZONE 'UTC', updated_at = now()
      WHERE jobs.id = (SELECT job_id FROM d)
    )
    UPDATE batches SET callback_state = ${state}::callback_state, updated_at = now() WHERE batches.id = (SELECT batch_id FROM d)`,
  );
  return state;
}
