import { z } from "zod";
import { CATEGORIES } from "@/server/pipelines/review-analytics/taxonomy";
import { LOCALES } from "@/i18n/routing";
import { ZCallbackSecret, ZCallbackUrl, ZDate, ZDateNull, ZText } from "../reviews/schemas";

// Alert rules of schedules and places (docs/review-engine.md, "Alerts").

export const ALERT_KINDS = ["low_rating", "health_safety", "negative_share_rise"] as const;
export const ALERT_CHANNELS = ["webhook", "email", "mesh"] as const;
export const ALERT_DELIVERY_STATES = ["pending", "delivered", "failed"] as const;
/** Rules one schedule or place may hold per owner. */
export const ALERT_RULES_PER_SUBJECT = 20;
/** Alerts listed with a rule (newest first). */
export const ALERTS_SHOWN = 20;

/** A mesh group name as members choose them (without the @). */
const ZGroup = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/i, { error: "must be a group name such as kitchen" });

export const ZCreateAlertRuleInput = z
  .object({
    schedule_id: z.uuid().optional(),
    place_id: z.uuid().optional(),
    name: ZText.optional(),
    kind: z.enum(ALERT_KINDS),
    /** low_rating: stars at or below (1 to 5); negative_share_rise: points of rise (1 to 100). */
    threshold: z.number().int().min(1).max(100).optional(),
    /** negative_share_rise: the category watched (every category when absent). */
    category: z.enum(CATEGORIES).optional(),
    /** Review rules: only reviews published (or edited) at most this many days before they were collected. */
    max_age_days: z.number().int().min(1).max(3_650).default(7),
    webhook_url: ZCallbackUrl.optional(),
    /** The webhook's signing secret (Standard Webhooks); one is made and shown once when absent. */
    webhook_secret: ZCallbackSecret.optional(),
    email: z.email({ error: "must be an e-mail address" }).max(254).optional(),
    /** A mesh with a review bot that the caller owns or administers. */
    mesh_id: z.uuid().optional(),
    /** Every alert to this group; absent: the group of each issue's owner team (kitchen, front_of_house, …). */
    mesh_group: ZGroup.optional(),
    /** The language of the alert's words (e-mail and mesh message). */
    locale: z.enum(LOCALES).default("en"),
  })
  .strict()
  .refine((v) => (v.schedule_id === undefined) !== (v.place_id === undefined), {
    error: "give exactly one of schedule_id and place_id",
    path: ["schedule_id"],
  })
  .refine((v) => v.webhook_url !== undefined || v.email !== undefined || v.mesh_id !== undefined, {
    error: "give at least one of webhook_url, email and mesh_id",
    path: ["webhook_url"],
  })
  .refine((v) => v.kind !== "low_rating" || (v.threshold !== undefined && v.threshold <= 5), {
    error: "low_rating needs a threshold of 1 to 5 stars",
    path: ["threshold"],
  })
  .refine((v) => v.kind !== "negative_share_rise" || v.threshold !== undefined, {
    error: "negative_share_rise needs a threshold of 1 to 100 points",
    path: ["threshold"],
  })
  .refine((v) => v.kind !== "health_safety" || v.threshold === undefined, {
    error: "health_safety takes no threshold",
    path: ["threshold"],
  })
  .refine((v) => v.kind === "negative_share_rise" || v.category === undefined, {
    error: "only negative_share_rise takes a category",
    path: ["category"],
  })
  .refine((v) => v.mesh_group === undefined || v.mesh_id !== undefined, {
    error: "mesh_group needs mesh_id",
    path: ["mesh_group"],
  })
  .refine((v) => v.webhook_secret === undefined || v.webhook_url !== undefined, {
    error: "webhook_secret needs webhook_url",
    path: ["webhook_secret"],
  });
export type TCreateAlertRuleInput = z.input<typeof ZCreateAlertRuleInput>;

export const ZListAlertRulesInput = z
  .object({ schedule_id: z.uuid().optional(), place_id: z.uuid().optional() })
  .refine((v) => (v.schedule_id === undefined) !== (v.place_id === undefined), {
    error: "give exactly one of schedule_id and place_id",
    path: ["schedule_id"],
  });

export const ZAlertRuleIdInput = z.object({ rule_id: z.uuid() });
export const ZSetAlertRuleEnabledInput = z.object({ rule_id: z.uuid(), enabled: z.boolean() });

export const ZAlertDeliveryOut = z.object({
  channel: z.enum(ALERT_CHANNELS),
  target: z.string(),
  state: z.enum(ALERT_DELIVERY_STATES),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  delivered_at: ZDateNull,
});

export const ZAlertOut = z.object({
  id: z.string(),
  created_at: ZDate,
  execution_id: z.string().nullable(),
  review_id: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  deliveries: z.array(ZAlertDeliveryOut),
});

export const ZAlertRuleOut = z.object({
  id: z.string(),
  name: z.string().nullable(),
  kind: z.enum(ALERT_KINDS),
  threshold: z.number().int().nullable(),
  category: z.enum(CATEGORIES).nullable(),
  max_age_days: z.number().int(),
  schedule_id: z.string().nullable(),
  place_id: z.string().nullable(),
  webhook_url: z.string().nullable(),
  email: z.string().nullable(),
  mesh_id: z.string().nullable(),
  mesh_name: z.string().nullable(),
  mesh_group: z.string().nullable(),
  locale: z.enum(LOCALES),
  enabled: z.boolean(),
  created_at: ZDate,
  alert_count: z.number().int(),
  alerts: z.array(ZAlertOut),
});
export type TAlertRuleOut = z.output<typeof ZAlertRuleOut>;
