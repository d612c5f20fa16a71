import { Prisma, sqlRows } from "@/server/core/db";
import type { ServiceContext } from "../../context";
import type { DeliveryToAttempt } from "./deliver";
import { secretOfOwner } from "./secrets";

/** A delivery a loop took for one attempt, with the secret that signs it and its host. */
export interface TakenDelivery {
  delivery: DeliveryToAttempt;
  host: string;
  secret: string | null;
}

interface Row {
  id: string;
  webhookId: string;
  url: string;
  payload: Prisma.JsonValue;
  attempts: number;
  createdAt: Date;
  host: string;
  jobId: string | null;
  batchId: string | null;
  jobSecretEnc: string | null;
  batchSecretEnc: string | null;
  apiKeyId: string | null;
  keySecretEnc: string | null;
}

export interface TakeDeliveriesInput {
  queue: string;
  /** How long the attempt holds the delivery: past this (its worker died) another takes it again. */
  leaseMs: number;
  /** Attempts at once per host, and the free slots of the hosts that have attempts running here. */
  perHost: number;
  free: Record<string, number>;
  /** The most deliveries taken. */
  limit: number;
}

/**
 * Takes up to `limit` due deliveries of the queue for an attempt each, in one statement: oldest due
 * first, rows other workers hold skipped, no more per host than it has free slots in this process.
 * The delivery row is the queue entry: its `next_attempt_at` moves to the end of the lease, and the
 * statement that records the attempt sets the next due time (or none).
 */
export async function takeDeliveries(ctx: ServiceContext, options: TakeDeliveriesInput): Promise<TakenDelivery[]> {
  const { limit } = options;
  // Due rows are read a few times over the limit so that rows of full hosts do not starve the others.
  const rows = await sqlRows<Row>(
    ctx.db,
    Prisma.sql`
    WITH due AS (
      SELECT id, host, next_attempt_at FROM callback_deliveries
      WHERE queue = ${options.queue} AND state = 'pending' AND next_attempt_at <= now() AT TIME ZONE 'UTC'
      ORDER BY next_attempt_at LIMIT ${limit * 4}::int FOR UPDATE SKIP LOCKED
    ), ranked AS (
      SELECT id, row_number() OVER (PARTITION BY host ORDER BY next_attempt_at, id) AS n,
        COALESCE((${JSON.stringify(options.free)}::jsonb ->> host)::int, ${options.perHost}::int) AS free
      FROM due
    ), picked AS (
      SELECT id FROM ranked WHERE n <= free ORDER BY id LIMIT ${limit}::int
    ), d AS (
      UPDATE callback_deliveries d SET next_attempt_at = (now() + ${options.leaseMs}::int * interval '1 millisecond') AT TIME ZONE 'UTC'
      FROM picked WHERE d.id = picked.id
      RETURNING d.id, d.webhook_id, d.url, d.payload, d.attempts, d.created_at, d.host, d.job_id, d.batch_id
    )
    SELECT d.id::text AS id, d.webhook_id AS "webhookId", d.url, d.payload, d.attempts, d.created_at AS "createdAt", d.host,
      d.job_id::text AS "jobId", d.batch_id::text AS "batchId", j.callback_secret_enc AS "jobSecretEnc", b.callback_secret_enc AS "batchSecretEnc",
      COALESCE(j.api_key_id, b.api_key_id)::text AS "apiKeyId", k.callback_secret_enc AS "keySecretEnc"
    FROM d LEFT JOIN jobs j ON j.id = d.job_id LEFT JOIN batches b ON b.id = d.batch_id
      LEFT JOIN api_keys k ON k.id = COALESCE(j.api_key_id, b.api_key_id)`,
  );
  return rows.map((r) => ({
    delivery: {
      id: r.id,
      webhookId: r.webhookId,
      url: r.url,
      payload: r.payload,
      attempts: r.attempts,
      createdAt: r.createdAt,
    },
    host: r.host,
    secret: secretOfOwner(ctx.sealer, r),
  }));
}

/** Hands a taken delivery back, due at once and with its attempt count unchanged (its host filled up meanwhile). */
export async function giveBackDelivery(
  ctx: ServiceContext,
  delivery: Pick<DeliveryToAttempt, "id" | "attempts">,
): Promise<void> {
  await sqlRows(
    ctx.db,
    Prisma.sql`UPDATE callback_deliveries SET next_attempt_at = now() AT TIME ZONE 'UTC'
      WHERE id = ${delivery.id}::uuid AND state = 'pending' AND attempts = ${delivery.attempts}::int RETURNING id`,
  );
}
