import type { Prisma as P } from "@/generated/prisma/client";
import { Prisma, sqlRows } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { previousRun } from "@/server/pipelines/review-analytics/previous-run";
import { CATEGORIES, OWNER_TEAMS, type Category } from "@/server/pipelines/review-analytics/taxonomy";
import type { RunPlace } from "@/server/pipelines/types";

type Tx = P.TransactionClient;

/** Alerts one rule makes from one run at most (a first collection of a busy place stays readable). */
export const ALERTS_PER_RULE_PER_RUN = 50;
/** A category's share is compared only when each run has at least this many reviews mentioning it. */
export const SHARE_MIN_MENTIONS = 5;
/** The team of an alert that names no category (a bare 1-star review). */
export const FALLBACK_TEAM = "management";

/** What an alert says; stored with it and sent as the webhook's `data` (docs/review-engine.md, "Alerts"). */
export interface AlertPayload {
  rule: { id: string; name: string | null; kind: string; threshold: number | null; category: string | null };
  place: { platform: string; origin: string; place_key: string; name: string | null; id: string | null };
  review: {
    id: string;
    external_id: string;
    rating: number | null;
    author: string | null;
    language: string | null;
    text: string | null;
    published_at: string | null;
    negative_categories: string[];
    health_and_safety: boolean;
  } | null;
  share: {
    category: string;
    previous_pct: number;
    current_pct: number;
    rise_points: number;
    previous_execution_id: string;
  } | null;
  /** The owner teams of the alert's issues: the mesh groups it goes to unless the rule names one. */
  teams: string[];
  execution_id: string;
  /** Paths on the web app (the worker puts PUBLIC_BASE_URL before them). */
  links: { run: string; place: string | null };
}

interface RuleRow {
  id: string;
  name: string | null;
  kind: "low_rating" | "health_safety" | "negative_share_rise";
  threshold: number | null;
  category: string | null;
  schedule_id: string | null;
  place_id: string | null;
  webhook_url: string | null;
  email: string | null;
  mesh_id: string | null;
  mesh_group: string | null;
  created_at: Date;
}

interface ReviewHit {
  rule_id: string;
  review_id: string;
  platform: string;
  origin: string;
  place_key: string;
  external_id: string;
  rating: number | null;
  author: string | null;
  language: string | null;
  text: string | null;
  published_at: Date | null;
  negative: string[];
  critical: boolean;
  place_id: string | null;
  place_name: string | null;
}

const EXCERPT = 500;
const runPath = (executionId: string) => `/pipelines/review-analytics/executions/${executionId}`;
const placePath = (placeId: string | null) => (placeId ? `/engine/places/${placeId}` : null);
const teamsOf = (categories: readonly string[]) => {
  const teams = [...new Set(categories.filter((c): c is Category => c in OWNER_TEAMS).map((c) => OWNER_TEAMS[c]))];
  return teams.length > 0 ? teams : [FALLBACK_TEAM];
};

/**
 * The rules that may fire on a run: enabled, and owned by an administrator or by a live API key that
 * could read the run's data (the run's read scope is that key, or the key has the admin scope). A rule of
 * one key never fires on another key's run, so an alert never carries a review its owner cannot read.
 */
async function rulesFor(tx: Tx, executionId: string): Promise<RuleRow[]> {
  return sqlRows<RuleRow>(
    tx,
    Prisma.sql`
    SELECT r.id::text, r.name, r.kind::text, r.threshold, r.category, r.schedule_id::text, r.place_id::text, r.webhook_url, r.email,
      r.mesh_id::text, r.mesh_group, r.created_at
    FROM alert_rules r JOIN pipeline_executions e ON e.id = ${executionId}::uuid LEFT JOIN api_keys k ON k.id = r.api_key_id
    WHERE r.enabled AND (r.webhook_url IS NOT NULL OR r.email IS NOT NULL OR r.mesh_id IS NOT NULL)
      AND (r.api_key_id IS NULL OR (k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
        AND (k.id = e.read_scope_api_key_id OR 'admin' = ANY (k.scopes))))
      AND (r.place_id IS NULL OR EXISTS (
        SELECT 1 FROM places p, jsonb_array_elements(e.places) AS rp
        WHERE p.id = r.place_id AND rp ->> 'origin' = p.origin AND rp ->> 'place_key' = p.place_key))
    ORDER BY r.id`,
  );
}

/** New reviews of the run that a review rule matches (at most ALERTS_PER_RULE_PER_RUN per rule, lowest rating first). */
async function reviewHits(tx: Tx, executionId: string, rules: readonly RuleRow[]): Promise<ReviewHit[]> {
  const ids = rules.filter((r) => r.kind !== "negative_share_rise").map((r) => r.id);
  if (ids.length === 0) return [];
  return sqlRows<ReviewHit>(
    tx,
    Prisma.sql`
    SELECT h.* FROM (
      SELECT r.id::text AS rule_id, rv.id::text AS review_id, rv.platform, rv.origin, rv.place_key, rv.external_id, rv.rating, rv.author,
        rv.language, rv.text, rv.published_at, l.negative, l.critical,
        p.id::text AS place_id, p.name AS place_name,
        row_number() OVER (PARTITION BY r.id ORDER BY rv.rating NULLS LAST, rv.id) AS n
      FROM alert_rules r
      JOIN pipeline_review_labels l ON l.execution_id = ${executionId}::uuid
      JOIN reviews rv ON l.review_id ~ '^[0-9a-f-]{36}$' AND rv.id = l.review_id::uuid
      LEFT JOIN places p ON p.id = (SELECT id FROM places WHERE platform = rv.platform AND origin = rv.origin AND place_key = rv.place_key LIMIT 1)
      WHERE r.id = ANY (${ids}::uuid[])
        AND rv.collected_at >= r.created_at
        AND COALESCE(rv.edited_at, rv.published_at, rv.collected_at) >= rv.collected_at - r.max_age_days * interval '1 day'
        AND ((r.kind = 'low_rating' AND l.rating IS NOT NULL AND l.rating <= r.threshold) OR (r.kind = 'health_safety' AND l.critical))
        AND (r.place_id IS NULL OR p.id = r.place_id)
        AND (r.schedule_id IS NULL OR EXISTS (
          SELECT 1 FROM job_reviews jr JOIN jobs j ON j.id = jr.job_id JOIN batches b ON b.id = j.batch_id
          WHERE jr.review_id = rv.id AND b.schedule_id = r.schedule_id))
        AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.rule_id = r.id
          AND a.subject = 'review:' || rv.platform || '|' || rv.origin || '|' || rv.place_key || '|' || rv.external_id)
    ) h WHERE h.n <= ${ALERTS_PER_RULE_PER_RUN}`,
  );
}

interface Share {
  category: string;
  mentioned: number;
  negative: number;
}

/** Per category: reviews mentioning it, and of them those whose mention is negative. */
async function shares(tx: Tx, executionId: string): Promise<Map<string, Share>> {
  const rows = await sqlRows<Share>(
    tx,
    Prisma.sql`
    SELECT c AS category, count(*)::int AS mentioned, count(*) FILTER (WHERE c = ANY (l.negative))::int AS negative
    FROM pipeline_review_labels l, unnest(l.mentioned) AS c
    WHERE l.execution_id = ${executionId}::uuid AND l.kept
    GROUP BY c`,
  );
  return new Map(rows.map((r) => [r.category, r]));
}

const pct = (s: Share) => Math.round((1000 * s.negative) / s.mentioned) / 10;

/** Whether the run's reviews include one collected by the schedule's batches. */
async function runHasSchedule(tx: Tx, executionId: string, scheduleId: string): Promise<boolean> {
  const rows = await sqlRows<{ one: number }>(
    tx,
    Prisma.sql`
    SELECT 1 AS one FROM pipeline_review_labels l JOIN job_reviews jr ON l.review_id ~ '^[0-9a-f-]{36}$' AND jr.review_id = l.review_id::uuid
      JOIN jobs j ON j.id = jr.job_id JOIN batches b ON b.id = j.batch_id
    WHERE l.execution_id = ${executionId}::uuid AND b.schedule_id = ${scheduleId}::uuid LIMIT 1`,
  );
  return rows.length > 0;
}

interface NewAlert {
  rule: RuleRow;
  subject: string;
  reviewId: string | null;
  payload: AlertPayload;
}

function ruleOf(r: RuleRow): AlertPayload["rule"] {
  return { id: r.id, name: r.name, kind: r.kind, threshold: r.threshold, category: r.category };
}

/** Share-rise alerts: a category's negative share up by the rule's points against the previous run of the same places. */
async function shareAlerts(
  tx: Tx,
  execution: { id: string; readScopeApiKeyId: string | null; places: readonly RunPlace[] },
  rules: readonly RuleRow[],
): Promise<NewAlert[]> {
  const watching = rules.filter((r) => r.kind === "negative_share_rise");
  if (watching.length === 0) return [];
  const previous = await previousRun(tx, execution.places, execution.readScopeApiKeyId, execution.id);
  if (!previous) return [];
  const [now, before] = await Promise.all([shares(tx, execution.id), shares(tx, previous.execution_id)]);
  const place = execution.places.length === 1 ? execution.places[0] : undefined;
  const out: NewAlert[] = [];
  for (const rule of watching) {
    if (rule.schedule_id && !(await runHasSchedule(tx, execution.id, rule.schedule_id))) continue;
    for (const category of rule.category ? [rule.category] : CATEGORIES) {
      const a = now.get(category);
      const b = before.get(category);
      if (!a || !b || a.mentioned < SHARE_MIN_MENTIONS || b.mentioned < SHARE_MIN_MENTIONS) continue;
      const rise = Math.round((pct(a) - pct(b)) * 10) / 10;
      if (rise < (rule.threshold ?? 100)) continue;
      out.push({
        rule,
        subject: `share:${category}|${execution.id}`,
        reviewId: null,
        payload: {
          rule: ruleOf(rule),
          place: {
            platform: "",
            origin: place?.origin ?? "",
            place_key: place?.place_key ?? "",
            name: place?.name ?? null,
            id: rule.place_id,
          },
          review: null,
          share: {
            category,
            previous_pct: pct(b),
            current_pct: pct(a),
            rise_points: rise,
            previous_execution_id: previous.execution_id,
          },
          teams: teamsOf([category]),
          execution_id: execution.id,
          links: { run: runPath(execution.id), place: placePath(rule.place_id) },
        },
      });
    }
  }
  return out;
}

/**
 * Fires the alert rules on a run that just succeeded, in the transaction that marks it succeeded (a
 * worker dying before the commit leaves neither, and the run is taken over): each alert once per rule
 * and subject (a review by platform, origin, place and external id, whichever of its versions and runs;
 * a category's share by run), and one queued delivery per channel (per group for a mesh). Returns how
 * many alerts were made.
 */
export async function fireAlerts(
  tx: Tx,
  execution: { id: string; readScopeApiKeyId: string | null; places: readonly RunPlace[]; queue: string },
): Promise<number> {
  const rules = await rulesFor(tx, execution.id);
  if (rules.length === 0) return 0;
  const byId = new Map(rules.map((r) => [r.id, r]));
  const alerts: NewAlert[] = (await reviewHits(tx, execution.id, rules)).map((h) => {
    const rule = byId.get(h.rule_id) as RuleRow;
    return {
      rule,
      subject: `review:${h.platform}|${h.origin}|${h.place_key}|${h.external_id}`,
      reviewId: h.review_id,
      payload: {
        rule: ruleOf(rule),
        place: { platform: h.platform, origin: h.origin, place_key: h.place_key, name: h.place_name, id: h.place_id },
        review: {
          id: h.review_id,
          external_id: h.external_id,
          rating: h.rating,
          author: h.author,
          language: h.language,
          text: h.text === null ? null : h.text.slice(0, EXCERPT),
          published_at: h.published_at ? h.published_at.toISOString() : null,
          negative_categories: h.negative,
          health_and_safety: h.critical,
        },
        share: null,
        teams: teamsOf(h.negative),
        execution_id: execution.id,
        links: { run: runPath(execution.id), place: placePath(h.place_id) },
      },
    };
  });
  alerts.push(...(await shareAlerts(tx, execution, rules)));
  let made = 0;
  for (const a of alerts) {
    const id = uuidv7();
    const inserted = await sqlRows<{ id: string }>(
      tx,
      Prisma.sql`
      INSERT INTO alerts (id, rule_id, subject, execution_id, review_id, payload)
      VALUES (${id}::uuid, ${a.rule.id}::uuid, ${a.subject}, ${execution.id}::uuid, ${a.reviewId}::uuid, ${JSON.stringify(a.payload)}::jsonb)
      ON CONFLICT (rule_id, subject) DO NOTHING RETURNING id::text`,
    );
    if (inserted.length === 0) continue;
    made++;
    const targets: { channel: string; target: string }[] = [
      ...(a.rule.webhook_url ? [{ channel: "webhook", target: "" }] : []),
      ...(a.rule.email ? [{ channel: "email", target: "" }] : []),
      ...(a.rule.mesh_id
        ? (a.rule.mesh_group ? [a.rule.mesh_group] : a.payload.teams).map((g) => ({ channel: "mesh", target: g }))
        : []),
    ];
    for (const t of targets) {
      await sqlRows(
        tx,
        Prisma.sql`
        INSERT INTO alert_deliveries (id, alert_id, channel, target, queue, next_attempt_at)
        VALUES (${uuidv7()}::uuid, ${id}::uuid, ${t.channel}::alert_channel, ${t.target}, ${execution.queue}, now() AT TIME ZONE 'UTC')
        ON CONFLICT DO NOTHING RETURNING id`,
      );
    }
  }
  return made;
}
