import { z } from "zod";
import type { TLayout } from "./generate";

/** Statuses a place or a request can be forced to answer with. */
export const FORCED_STATUSES = [403, 404, 429, 500, 502, 503] as const;

const ZStatus = z.literal(FORCED_STATUSES);
const ZLayout = z.literal([1, 2]);

export const ZPlaceOverride = z.strictObject({
  layout: ZLayout.optional(),
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  status: ZStatus.optional(),
  errorRate: z.number().min(0).max(1).optional(),
});
export type TPlaceOverride = z.output<typeof ZPlaceOverride>;

/** Run-time knobs of the platform; `PUT /admin/settings` changes them (partial), `POST /admin/reset` restores them. */
export const ZPlatformSettings = z.strictObject({
  /** "per-place": each place's own layout; "1" or "2": every place (the drift switch). */
  layout: z.enum(["per-place", "1", "2"]),
  /** Added to every place page, fragment and API answer. */
  latencyMs: z.number().int().min(0).max(120_000),
  /** Share of those answers that fail with 503. */
  errorRate: z.number().min(0).max(1),
  /** Token bucket per client address over place pages, fragments and API; perMinute 0 turns it off. */
  rateLimit: z.strictObject({
    capacity: z.number().int().min(1).max(1_000_000),
    perMinute: z.number().int().min(0).max(10_000_000),
  }),
  /** Per-place overrides, by place id. */
  places: z.record(z.string().min(1).max(64), ZPlaceOverride),
});
export type TPlatformSettings = z.output<typeof ZPlatformSettings>;

export const ZSettingsPatch = ZPlatformSettings.partial();

/** The special places misbehave from the start: one is behind a captcha, one is slow, one fails half the time. */
export const SPECIAL_PLACE_OVERRIDES: Record<string, TPlaceOverride> = {
  "p-blocked": { status: 403 },
  "p-slow": { latencyMs: 10_000 },
  "p-flaky": { errorRate: 0.5 },
};

/** The layout a place is shown in, after the platform switch and the place override. */
export function effectiveLayout(settings: TPlatformSettings, placeId: string, own: TLayout): TLayout {
  const override = settings.places[placeId]?.layout;
  if (override) return override;
  if (settings.layout === "1") return 1;
  if (settings.layout === "2") return 2;
  return own;
}

/** POST /admin/places/{id}/activity: new reviews, and edits of the newest ones. */
export const ZActivity = z.strictObject({
  add: z.number().int().min(0).max(100).default(0),
  edit: z.number().int().min(0).max(100).default(0),
});
