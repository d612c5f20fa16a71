import type { z } from "zod";
import type { AlertRule, Prisma as P } from "@/generated/prisma/client";
import { Prisma, sqlRows } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { uuidv7 } from "@/server/core/ids";
import type { Locale } from "@/i18n/routing";
import type { Category } from "@/server/pipelines/review-analytics/taxonomy";
import type { ServiceContext } from "../context";
import { apiKeyIdOf, ownedBy, type ReviewActor } from "../reviews/access";
import { LIVE_BOT } from "../review-bots/live-bot";
import { generateWebhookSecret } from "../reviews/callbacks/signing";
import { checkCallback } from "../reviews/create-jobs";
import { getPlace } from "../reviews/places";
import { getScheduleRow } from "../reviews/schedules";
import {
  ALERT_RULES_PER_SUBJECT,
  ALERTS_SHOWN,
  type TAlertRuleOut,
  type ZCreateAlertRuleInput,
  type ZListAlertRulesInput,
} from "./alert-rules.schema";

/** Additional data binding a sealed webhook secret to its rule. */
export const alertSecretAad = (ruleId: string) => `alert-rule-webhook-secret:${ruleId}`;

/** The user behind the caller, who must own or administer a mesh the alerts go to. */
function userOf(ctx: ServiceContext<ReviewActor>): Promise<string | null> | string | null {
  const { actor } = ctx;
  if (actor.kind === "administrator") return actor.userId;
  if (actor.kind === "apiKey")
    return ctx.db.apiKey
      .findUnique({ where: { id: actor.apiKeyId }, select: { createdByUserId: true } })
      .then((k) => k?.createdByUserId ?? null);
  return null;
}

/**
 * 404 mesh_not_found unless the caller's person owns the mesh or is one of its administrators
 * (a member with the owner or admin role, not removed): alerts go only into a mesh its people chose.
 */
async function checkMesh(ctx: ServiceContext<ReviewActor>, meshId: string): Promise<void> {
  const userId = await userOf(ctx);
  const mesh = userId
    ? await ctx.db.mesh.findFirst({
        where: {
          id: meshId,
          archivedAt: null,
          OR: [
            { ownerUserId: userId },
            { members: { some: { userId, role: { in: ["owner", "admin"] }, revokedAt: null } } },
          ],
        },
        select: { id: true },
      })
    : null;
  if (!mesh) throw new AppError("NOT_FOUND", "mesh_not_found");
  if (!(await ctx.db.reviewBot.findFirst({ where: { meshId, ...LIVE_BOT }, select: { id: true } })))
    throw new AppError("UNPROCESSABLE", "mesh_has_no_review_bot");
}

const RULE_INCLUDE = {
  mesh: { select: { name: true } },
  _count: { select: { alerts: true } },
  alerts: {
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: ALERTS_SHOWN,
    include: { deliveries: { orderBy: [{ channel: "asc" }, { target: "asc" }] } },
  },
} as const satisfies P.AlertRuleInclude;

type RuleRow = P.AlertRuleGetPayload<{ include: typeof RULE_INCLUDE }>;

function toRuleOut(r: RuleRow): TAlertRuleOut {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    threshold: r.threshold,
    category: r.category as Category | null,
    max_age_days: r.maxAgeDays,
    schedule_id: r.scheduleId,
    place_id: r.placeId,
    webhook_url: r.webhookUrl,
    email: r.email,
    mesh_id: r.meshId,
    mesh_name: r.mesh?.name ?? null,
    mesh_group: r.meshGroup,
    locale: r.locale as Locale,
    enabled: r.enabled,
    created_at: r.createdAt,
    alert_count: r._count.alerts,
    alerts: r.alerts.map((a) => ({
      id: a.id,
      created_at: a.createdAt,
      execution_id: a.executionId,
      review_id: a.reviewId,
      payload: a.payload as Record<string, unknown>,
      deliveries: a.deliveries.map((d) => ({
        channel: d.channel,
        target: d.target,
        state: d.state,
        attempts: d.attempts,
        last_status_code: d.lastStatusCode,
        last_error: d.lastError,
        delivered_at: d.deliveredAt,
      })),
    })),
  };
}

/** The schedule or place the rule is about, checked readable by the caller (404 as an absent one). */
async function checkSubject(ctx: ServiceContext<ReviewActor>, input: { schedule_id?: string; place_id?: string }) {
  if (input.schedule_id) await getScheduleRow(ctx, input.schedule_id);
  else if (input.place_id) await getPlace(ctx, { place_id: input.place_id });
}

/**
 * Creates an alert rule of a schedule or place the caller can read. Its webhook secret (given, or made
 * here) is sealed and answered once as `webhook_secret`; a mesh must be one the caller's person owns or
 * administers. At most ALERT_RULES_PER_SUBJECT rules per schedule or place and owner (422 too_many_alert_rules).
 */
export async function createAlertRule(
  ctx: ServiceContext<ReviewActor>,
  input: z.output<typeof ZCreateAlertRuleInput>,
): Promise<TAlertRuleOut & { webhook_secret: string | null }> {
  await checkSubject(ctx, input);
  checkCallback(ctx, input.webhook_url);
  if (input.mesh_id) await checkMesh(ctx, input.mesh_id);
  const id = uuidv7();
  const apiKeyId = apiKeyIdOf(ctx.actor);
  const userId = ctx.actor.kind === "administrator" ? ctx.actor.userId : null;
  const secret = input.webhook_url ? (input.webhook_secret ?? generateWebhookSecret()) : null;
  const subject = input.schedule_id
    ? Prisma.sql`schedule_id = ${input.schedule_id}::uuid`
    : Prisma.sql`place_id = ${input.place_id}::uuid`;
  // The count and the insert in one statement: concurrent creates cannot pass the cap together.
  const rows = await sqlRows<{ id: string }>(
    ctx.db,
    Prisma.sql`
    INSERT INTO alert_rules (id, name, kind, threshold, category, max_age_days, schedule_id, place_id, api_key_id, created_by_user_id,
      webhook_url, webhook_secret_enc, email, mesh_id, mesh_group, locale, updated_at)
    SELECT ${id}::uuid, ${input.name ?? null}, ${input.kind}::alert_kind, ${input.threshold ?? null}::int, ${input.category ?? null}, ${input.max_age_days}::int,
      ${input.schedule_id ?? null}::uuid, ${input.place_id ?? null}::uuid, ${apiKeyId}::uuid, ${userId},
      ${input.webhook_url ?? null}, ${secret ? ctx.sealer.seal(secret, alertSecretAad(id)) : null}, ${input.email ?? null},
      ${input.mesh_id ?? null}::uuid, ${input.mesh_group ?? null}, ${input.locale}, now()
    WHERE (SELECT count(*) FROM alert_rules WHERE ${subject} AND api_key_id IS NOT DISTINCT FROM ${apiKeyId}::uuid) < ${ALERT_RULES_PER_SUBJECT}
    RETURNING id::text`,
  );
  if (rows.length === 0) throw new AppError("UNPROCESSABLE", "too_many_alert_rules", { max: ALERT_RULES_PER_SUBJECT });
  const rule = await ctx.db.alertRule.findUniqueOrThrow({ where: { id }, include: RULE_INCLUDE });
  return { ...toRuleOut(rule), webhook_secret: secret };
}

/** The rules of a schedule or place the caller can read, each with its newest alerts and their deliveries. */
export async function listAlertRules(
  ctx: ServiceContext<ReviewActor>,
  input: z.output<typeof ZListAlertRulesInput>,
): Promise<TAlertRuleOut[]> {
  await checkSubject(ctx, input);
  const rows = await ctx.db.alertRule.findMany({
    where: {
      ...(input.schedule_id ? { scheduleId: input.schedule_id } : { placeId: input.place_id }),
      ...ownedBy(ctx.actor),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: ALERT_RULES_PER_SUBJECT * 5,
    include: RULE_INCLUDE,
  });
  return rows.map(toRuleOut);
}

async function ownedRule(ctx: ServiceContext<ReviewActor>, ruleId: string): Promise<AlertRule> {
  const rule = await ctx.db.alertRule.findFirst({ where: { id: ruleId, ...ownedBy(ctx.actor) } });
  if (!rule) throw new AppError("NOT_FOUND", "alert_rule_not_found");
  return rule;
}

/** Turns a rule off (it fires no more; alerts already made are still delivered) or on again. */
export async function setAlertRuleEnabled(
  ctx: ServiceContext<ReviewActor>,
  input: { rule_id: string; enabled: boolean },
): Promise<TAlertRuleOut> {
  await ownedRule(ctx, input.rule_id);
  const rule = await ctx.db.alertRule.update({
    where: { id: input.rule_id },
    data: { enabled: input.enabled },
    include: RULE_INCLUDE,
  });
  return toRuleOut(rule);
}

/** Deletes a rule with its alerts and their pending deliveries. */
export async function deleteAlertRule(ctx: ServiceContext<ReviewActor>, input: { rule_id: string }): Promise<void> {
  await ownedRule(ctx, input.rule_id);
  await ctx.db.alertRule.delete({ where: { id: input.rule_id } });
}

/**
 * The meshes with a live review bot that the caller's person owns or administers, where alerts may go (docs/review-engine.md,
 * "Alerts"), each with the group names its live members use: the alert form's choices.
 */
export async function listAlertMeshes(
  ctx: ServiceContext<ReviewActor>,
  _input: Record<string, never> = {},
): Promise<{ mesh_id: string; mesh_name: string; groups: string[] }[]> {
  const userId = await userOf(ctx);
  if (!userId) return [];
  return sqlRows<{ mesh_id: string; mesh_name: string; groups: string[] }>(
    ctx.db,
    Prisma.sql`
    SELECT m.id::text AS mesh_id, m.name AS mesh_name,
      COALESCE((SELECT array_agg(DISTINCT g ORDER BY g) FROM members x, unnest(x.groups) AS g
        WHERE x.mesh_id = m.id AND x.revoked_at IS NULL), '{}') AS groups
    FROM meshes m
    WHERE m.archived_at IS NULL
      AND EXISTS (SELECT 1 FROM review_bots b JOIN members bm ON bm.id = b.member_id WHERE b.mesh_id = m.id AND bm.revoked_at IS NULL)
      AND (m.owner_user_id = ${userId} OR EXISTS (
      SELECT 1 FROM members o WHERE o.mesh_id = m.id AND o.user_id = ${userId} AND o.role IN ('owner', 'admin') AND o.revoked_at IS NULL))
    ORDER BY m.name, m.id
    LIMIT 200`,
  );
}
