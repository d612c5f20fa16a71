import type { Locale } from "@/i18n/routing";
import { Prisma, sqlRows } from "@/server/core/db";
import { alertMail } from "@/server/mail/templates";
import type { Mailer } from "@/server/mail/transport";
import type { ServiceContext } from "../context";
import { postSigned, type AttemptResult } from "../reviews/callbacks/deliver";
import { backoffMs, verdictOf } from "../reviews/callbacks/schedule";
import { signedHeaders } from "../reviews/callbacks/signing";
import { alertSecretAad } from "./alert-rules";
import { alertLinks, alertMessage, alertText } from "./alert-text";
import type { AlertPayload } from "./fire-alerts";

/** A mesh message sent as the mesh's review bot; rejects with an Error whose message is a short code. */
export type MeshSender = (input: { meshId: string; group: string; text: string; dedupeId: string }) => Promise<void>;

/** What delivering alerts needs besides the context: the links' base, a mailer and the mesh sender. */
export interface AlertDeliveryDeps {
  /** The web app's public address (PUBLIC_BASE_URL): alerts link to the run and the place there. */
  publicBaseUrl: string;
  mailer: Mailer;
  /** Null where no broker is reachable: mesh deliveries then fail as `mesh_unavailable` and are retried. */
  sendToMesh: MeshSender | null;
}

/** One delivery taken for an attempt, with what its channel needs. */
export interface TakenAlertDelivery {
  id: string;
  channel: "webhook" | "email" | "mesh";
  target: string;
  attempts: number;
  createdAt: Date;
  payload: AlertPayload;
  ruleId: string;
  webhookUrl: string | null;
  webhookSecretEnc: string | null;
  email: string | null;
  meshId: string | null;
  locale: Locale;
}

/**
 * Takes up to `limit` due deliveries of the queue, oldest first, rows other workers hold skipped; each
 * one's next_attempt_at moves to the end of the lease (a worker that dies mid-attempt leaves it to be
 * taken again then).
 */
export async function takeAlertDeliveries(
  ctx: ServiceContext,
  input: { queue: string; leaseMs: number; limit: number },
): Promise<TakenAlertDelivery[]> {
  return sqlRows<TakenAlertDelivery>(
    ctx.db,
    Prisma.sql`
    WITH due AS (
      SELECT id FROM alert_deliveries
      WHERE queue = ${input.queue} AND state = 'pending' AND next_attempt_at <= now() AT TIME ZONE 'UTC'
      ORDER BY next_attempt_at LIMIT ${input.limit}::int FOR UPDATE SKIP LOCKED
    ), d AS (
      UPDATE alert_deliveries d SET next_attempt_at = (now() + ${input.leaseMs}::int * interval '1 millisecond') AT TIME ZONE 'UTC'
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.alert_id, d.channel, d.target, d.attempts, d.created_at
    )
    SELECT d.id::text AS id, d.channel::text AS channel, d.target, d.attempts, d.created_at AS "createdAt", a.payload,
      r.id::text AS "ruleId", r.webhook_url AS "webhookUrl", r.webhook_secret_enc AS "webhookSecretEnc", r.email, r.mesh_id::text AS "meshId", r.locale
    FROM d JOIN alerts a ON a.id = d.alert_id JOIN alert_rules r ON r.id = a.rule_id`,
  );
}

/** The webhook's body: Standard Webhooks' {type, timestamp, data}, links made absolute in the rule's language. */
export function alertWebhookBody(d: Pick<TakenAlertDelivery, "payload" | "locale">, baseUrl: string, at: Date): string {
  const data = { ...d.payload, links: alertLinks(d.payload, d.locale, baseUrl) };
  return JSON.stringify({ type: "review.alert", timestamp: at.toISOString(), data });
}

/** A failure that no retry can mend: the delivery fails at once. */
const FINAL_ERRORS = new Set([
  "no_destination",
  "bot_gone",
  "mesh_gone",
  "group_empty",
  "group_too_large",
  "no_signing_secret",
]);

async function attemptChannel(
  ctx: ServiceContext,
  d: TakenAlertDelivery,
  deps: AlertDeliveryDeps,
): Promise<AttemptResult> {
  const started = Date.now();
  const done = (status: number | null, error: string | null): AttemptResult => ({
    status,
    error,
    durationMs: Date.now() - started,
  });
  const s = ctx.settings.review;
  if (d.channel === "webhook") {
    if (!d.webhookUrl) return done(null, "no_destination");
    if (!d.webhookSecretEnc) return done(null, "no_signing_secret");
    const secret = ctx.sealer.open(d.webhookSecretEnc, alertSecretAad(d.ruleId)).toString("utf8");
    const at = ctx.now();
    const body = alertWebhookBody(d, deps.publicBaseUrl, at);
    const headers = signedHeaders(secret, `msg_${d.id}`, Math.floor(at.getTime() / 1000), body);
    return postSigned(new URL(d.webhookUrl), headers, body, s.CALLBACK_TIMEOUT_MS, s.CALLBACK_ALLOW_PRIVATE);
  }
  try {
    if (d.channel === "email") {
      if (!d.email) return done(null, "no_destination");
      if (deps.mailer.kind === "none") return done(null, "mail_not_configured");
      await deps.mailer.send(alertMail(d.email, d.locale, alertText(d.payload, d.locale, deps.publicBaseUrl)));
      return done(250, null);
    }
    if (!d.meshId) return done(null, "mesh_gone");
    if (!deps.sendToMesh) return done(null, "mesh_unavailable");
    await deps.sendToMesh({
      meshId: d.meshId,
      group: d.target,
      text: alertMessage(d.payload, d.locale, deps.publicBaseUrl),
      dedupeId: d.id,
    });
    return done(200, null);
  } catch (error) {
    const code = error instanceof Error ? error.message : String(error);
    return done(null, /^[a-z_]{1,60}$/.test(code) ? code : "send_failed");
  }
}

/**
 * Makes one attempt of a taken delivery and records it, guarded on its attempt count (a run whose lease
 * passed records nothing twice): delivered, pending again after a backoff (as callbacks: 408, 429, 5xx,
 * network errors, a mail server or broker away), or failed (other answers, a refused address, a gone
 * bot or mesh, CALLBACK_MAX_AGE_MS after the alert). Returns the new state.
 */
export async function attemptAlertDelivery(
  ctx: ServiceContext,
  d: TakenAlertDelivery,
  deps: AlertDeliveryDeps,
): Promise<"delivered" | "pending" | "failed"> {
  const s = ctx.settings.review;
  const result = await attemptChannel(ctx, d, deps);
  let verdict = verdictOf(result.status);
  if (result.error && (result.error.startsWith("destination_refused") || FINAL_ERRORS.has(result.error)))
    verdict = "stop";
  const at = ctx.now();
  const tooOld = at.getTime() - d.createdAt.getTime() >= s.CALLBACK_MAX_AGE_MS;
  const state = verdict === "delivered" ? "delivered" : verdict === "stop" || tooOld ? "failed" : "pending";
  const next =
    state === "pending"
      ? new Date(
          at.getTime() + backoffMs(d.attempts + 1, s.CALLBACK_BACKOFF_BASE_MS, s.CALLBACK_BACKOFF_MAX_MS, ctx.random),
        )
      : null;
  await sqlRows(
    ctx.db,
    Prisma.sql`
    UPDATE alert_deliveries SET attempts = attempts + 1, state = ${state}::alert_delivery_state, last_status_code = ${result.status}::int,
      last_error = ${result.error}, next_attempt_at = ${next}::timestamptz AT TIME ZONE 'UTC',
      delivered_at = CASE WHEN ${state} = 'delivered' THEN now() AT TIME ZONE 'UTC' END
    WHERE id = ${d.id}::uuid AND state = 'pending' AND attempts = ${d.attempts}::int RETURNING id`,
  );
  return state;
}
