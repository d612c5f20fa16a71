// Pure helpers of the schedule pages: how often an interval schedule runs, what a target is, and the
// chart's rows (docs/review-engine.md, "Monitoring").

export const INTERVAL_UNITS = ["week", "day", "hour", "minute", "second"] as const;
export type TIntervalUnit = (typeof INTERVAL_UNITS)[number];
const SECONDS: Record<TIntervalUnit, number> = { week: 604_800, day: 86_400, hour: 3_600, minute: 60, second: 1 };

/** An interval in the largest unit that divides it: 3600 → 1 hour, 5400 → 90 minutes, 90 → 90 seconds. */
export function intervalParts(seconds: number): { unit: TIntervalUnit; count: number } {
  const unit = INTERVAL_UNITS.find((u) => seconds >= SECONDS[u] && seconds % SECONDS[u] === 0) ?? "second";
  return { unit, count: seconds / SECONDS[unit] };
}

/** A schedule's target as stored: where the reviews are and how many a run reads. */
export interface TargetView {
  place: string;
  reviewLimit: number | null;
  version: string | null;
}

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

export function targetView(target: Record<string, unknown>): TargetView {
  const version = text(target.scraper_version);
  const variant = text(target.scraper_variant);
  return {
    place: text(target.platform_id) ?? text(target.place_url) ?? "—",
    reviewLimit: typeof target.review_limit === "number" ? target.review_limit : null,
    version: version ? [version, variant ?? ""].join("/") : null,
  };
}

/** A run as the schedule's page receives it (the fields the chart reads). */
export interface RunCounts {
  slot: Date;
  changes: { new: number; updated: number; unchanged: number } | null;
}

/** The chart's rows: runs oldest first (left), a run without counts yet kept as a gap. */
export function chartRows(runs: readonly RunCounts[], label: (slot: Date) => string) {
  return [...runs]
    .sort((a, b) => a.slot.getTime() - b.slot.getTime())
    .map((r) => ({
      slot: label(r.slot),
      new: r.changes?.new ?? null,
      updated: r.changes?.updated ?? null,
      unchanged: r.changes?.unchanged ?? null,
    }));
}
