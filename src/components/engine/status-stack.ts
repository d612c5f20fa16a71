/** Job counts by status, as the dashboards return them. */
export interface StatusCounts {
  queued: number;
  running: number;
  succeeded: number;
  failed: number;
  cancelled: number;
}

/** The series of a stacked jobs chart, in drawing order; "open" is queued and running together. */
export const STACK_SERIES = ["succeeded", "failed", "cancelled", "open"] as const;

/**
 * One bar of a stacked jobs chart: every job of the row in exactly one series, so a client with 17
 * jobs is drawn 17 high (cancelled and unfinished jobs are drawn, not silently left out).
 */
export function statusStack(by: StatusCounts): Record<(typeof STACK_SERIES)[number], number> {
  return { succeeded: by.succeeded, failed: by.failed, cancelled: by.cancelled, open: by.queued + by.running };
}

/**
 * A scraper version's label: "version/variant", the version alone without a variant, and `none` for
 * jobs that never got a version (refused or cancelled before a scraper was chosen). Never empty.
 */
export function versionLabel(version: string | null, variant: string | null, none: string): string {
  if (!version) return none;
  return variant ? `${version}/${variant}` : version;
}
