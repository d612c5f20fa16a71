import type { CallbackDelivery } from "@/generated/prisma/client";
import { Prisma, sqlRows } from "@/server/core/db";
import { OutboundError, outboundRequest } from "@/server/core/outbound/request";
import type { ServiceContext } from "../../context";
import type { AttemptRecord } from "./attempt-record";
import { backoffMs, verdictOf } from "./schedule";
import { callbackSecretFor } from "./secrets";
import { signedHeaders } from "./signing";

/** The most of a receiver's answer that is read; the rest is cut, and the attempt counts as answered. */
export const CALLBACK_MAX_RESPONSE_BYTES = 64 * 1024;

export interface AttemptResult {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * POSTs one signed body under the outbound guard (core/outbound): the name resolved once and every
 * address checked, the connection pinned to the checked address, one deadline (CALLBACK_TIMEOUT_MS)
 * from the lookup to the answer's last byte whatever the receiver drips, the answer cut at 64 KiB.
 */
export async function postSigned(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<AttemptResult> {
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
    const text =
      e?.code === "refused"
        ? `destination_refused:${e.detail ?? "address"}`
        : e?.code === "timeout"
          ? "timeout"
          : "network";
    return { status: null, error: text, durationMs: Date.now() - started };
  }
}

/** What an attempt needs of a delivery row. */
export type DeliveryToAttempt = Pick<
  CallbackDelivery,
  "id" | "webhookId" | "url" | "payload" | "attempts" | "createdAt"
>;

/**
 * One delivery attempt by id (tests, tools): reads the delivery and its signing secret, then attempts
 * it (see `attemptLoaded`). A delivery that is no longer pending is left alone.
 */
export async function attemptDelivery(ctx: ServiceContext, input: { deliveryId: string }): Promise<string> {
  const delivery = await ctx.db.callbackDelivery.findUnique({ where: { id: input.deliveryId } });
  if (!delivery || delivery.state !== "pending") return "skipped";
  return attemptLoaded(ctx, delivery, await callbackSecretFor(ctx, delivery), (r) => recordAttempts(ctx, [r]));
}

/**
 * Records attempts in one statement, each guarded on its delivery's attempt count (so two runs of one
 * attempt, a lease that passed while the first was still trying, record it once): the attempt row,
 * the delivery's new state and next due time, and the job's or batch's mirror of it. Rows are reached
 * by primary key.
 */
export async function recordAttempts(ctx: ServiceContext, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const col = <K extends keyof AttemptRecord>(k: K) => records.map((r) => r[k]);
  await sqlRows(
    ctx.db,
    Prisma.sql`
    WITH i AS (
      SELECT * FROM unnest(${col("deliveryId")}::uuid[], ${col("previous")}::int[], ${col("state")}::text[], ${col("status")}::int[],
        ${col("error")}::text[], ${col("durationMs")}::int[], ${col("next")}::timestamptz[], ${col("deliveredAt")}::timestamptz[])
        AS i (id, previous, state, status, error, duration_ms, next, delivered_at)
    ), d AS (
      UPDATE callback_deliveries c SET attempts = i.previous + 1, state = i.state::callback_state, last_status_code = i.status, last_error = i.error,
        next_attempt_at = i.next AT TIME ZONE 'UTC', delivered_at = i.delivered_at AT TIME ZONE 'UTC'
      FROM i WHERE c.id = ANY (${col("deliveryId")}::uuid[]) AND c.id = i.id AND c.state = 'pending' AND c.attempts = i.previous
      RETURNING c.id, c.job_id, c.batch_id, c.attempts, i.state, i.status, i.error, i.duration_ms, i.delivered_at
    ), a AS (
      INSERT INTO callback_attempts (delivery_id, attempt, status_code, error, duration_ms) SELECT id, attempts, status, error, duration_ms FROM d
    ), j AS (
      UPDATE jobs SET callback_state = d.state::callback_state, callback_attempts = d.attempts, callback_last_status = d.status,
        callback_last_error = d.error, callback_delivered_at = d.delivered_at AT TIME ZONE 'UTC', updated_at = now()
      FROM d WHERE jobs.id = d.job_id
    )
    UPDATE batches SET callback_state = d.state::callback_state, updated_at = now() FROM d WHERE batches.id = d.batch_id`,
  );
}

/**
 * Signs and POSTs one attempt of a delivery, then records it with `record` (`recordAttempts`; in the
 * worker through one batcher, so attempts ending together share a statement). `onAnswered` runs as
 * soon as the exchange with the receiver is over, before the record (it frees the host's slot).
 */
export async function attemptLoaded(
  ctx: ServiceContext,
  delivery: DeliveryToAttempt,
  secret: string | null,
  record: (record: AttemptRecord) => Promise<void>,
  onAnswered: () => void = () => {},
): Promise<string> {
  const s = ctx.settings.review;
  const now = ctx.now;
  const attempt = delivery.attempts + 1;
  const text = JSON.stringify(delivery.payload);
  let result: AttemptResult;
  try {
    if (!secret) result = { status: null, error: "no_signing_secret", durationMs: 0 };
    else {
      const ts = Math.floor(now().getTime() / 1000);
      result = await postSigned(
        new URL(delivery.url),
        signedHeaders(secret, delivery.webhookId, ts, text),
        text,
        s.CALLBACK_TIMEOUT_MS,
        s.CALLBACK_ALLOW_PRIVATE,
      );
    }
  } finally {
    onAnswered();
  }
  let verdict = verdictOf(result.status);
  if (result.error?.startsWith("destination_refused") || result.error === "no_signing_secret") verdict = "stop";
  const at = now();
  const tooOld = at.getTime() - delivery.createdAt.getTime() >= s.CALLBACK_MAX_AGE_MS;
  const state = verdict === "delivered" ? "delivered" : verdict === "stop" || tooOld ? "failed" : "pending";
  const next =
    state === "pending"
      ? new Date(at.getTime() + backoffMs(attempt, s.CALLBACK_BACKOFF_BASE_MS, s.CALLBACK_BACKOFF_MAX_MS, ctx.random))
      : null;
  const attempted: AttemptRecord = {
    deliveryId: delivery.id,
    previous: delivery.attempts,
    state,
    status: result.status,
    error: result.error,
    durationMs: result.durationMs,
    next,
    deliveredAt: state === "delivered" ? at : null,
  };
  await record(attempted);
  return state;
}
