import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { ReviewDeps } from "../deps";
import { DestinationRefused, resolveDestination } from "./destination";
import { backoffMs, verdictOf } from "./schedule";
import { signedHeaders } from "./signing";
import type { CallbackDelivery } from "@/generated/prisma/client";
import { Prisma, sqlRows } from "@/server/core/db";
import { QUEUES } from "@/server/queue/queues";
import { deletePendingQueueRow, insertQueueRows } from "@/server/queue/sql";
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

/** What an attempt needs of a delivery row. */
export type DeliveryToAttempt = Pick<CallbackDelivery, "id" | "webhookId" | "url" | "payload" | "attempts" | "createdAt">;

/**
 * One delivery attempt of a callback (a callback queue job): reads the delivery and its signing
 * secret, then attempts it (see `attemptLoaded`). A delivery that is no longer pending is left alone.
 */
export async function attemptDelivery(deps: ReviewDeps, deliveryId: string, now: () => Date = () => new Date()): Promise<string> {
  const delivery = await deps.db.callbackDelivery.findUnique({ where: { id: deliveryId } });
  if (!delivery || delivery.state !== "pending") return "skipped";
  return attemptLoaded(deps, delivery, await callbackSecretFor(deps, delivery), now);
}

/**
 * Signs and POSTs one attempt of a delivery, then records it in one statement: the attempt, the
 * delivery's new state, the job's or batch's mirror of it, and either the next attempt's queue row
 * (after the backoff) or nothing more when delivered or given up. The statement also drops the
 * delivery's first queue row if it has not run yet: the worker that ends a job attempts its callback
 * at once and leaves that row as a safety net, due only after the attempt's time limit.
 * Guarded on the attempt count, so two runs of one attempt record it once.
 */
export async function attemptLoaded(deps: ReviewDeps, delivery: DeliveryToAttempt, secret: string | null, now: () => Date = () => new Date()): Promise<string> {
  const s = deps.settings;
  const deliveryId = delivery.id;
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
  const schema = s.QUEUE_SCHEMA;
  await sqlRows(
    deps.db,
    Prisma.sql`
    WITH d AS (
      UPDATE callback_deliveries SET attempts = ${attempt}::int, state = ${state}::callback_state, last_status_code = ${result.status}::int,
        last_error = ${result.error}::text, next_attempt_at = ${next}::timestamptz, delivered_at = ${state === "delivered" ? at : null}::timestamptz
      WHERE id = ${deliveryId}::uuid AND state = 'pending' AND attempts = ${delivery.attempts}::int
      RETURNING id, job_id, batch_id
    ), a AS (
      INSERT INTO callback_attempts (delivery_id, attempt, status_code, error, duration_ms)
      SELECT id, ${attempt}::int, ${result.status}::int, ${result.error}::text, ${result.durationMs}::int FROM d
    ), j AS (
      UPDATE jobs SET callback_state = ${state}::callback_state, callback_attempts = ${attempt}::int, callback_last_status = ${result.status}::int,
        callback_last_error = ${result.error}::text, callback_delivered_at = ${state === "delivered" ? at : null}::timestamptz, updated_at = now()
      WHERE jobs.id = (SELECT job_id FROM d)
    ), b AS (
      UPDATE batches SET callback_state = ${state}::callback_state, updated_at = now() WHERE batches.id = (SELECT batch_id FROM d)
    ), first AS (
      ${deletePendingQueueRow(schema, QUEUES.callback, Prisma.sql`${deliveryId}::uuid`)} AND EXISTS (SELECT 1 FROM d)
    ), q AS (
      ${insertQueueRows(schema, QUEUES.callback, Prisma.sql`SELECT gen_random_uuid(), jsonb_build_object('deliveryId', id::text), 0, ${next}::timestamptz FROM d WHERE ${next !== null}`)}
    )
    SELECT 1`,
  );
  return state;
}
