/**
 * The one map of states to tones: every status badge in the app (jobs, batches, pipeline runs and
 * stages, schedules, invites, members, meshes) takes its colour from here and its word from
 * `ui.status.<state>` in the messages. A state missing here is shown neutral, with its own words.
 */
export type Tone = "success" | "danger" | "warning" | "info" | "neutral";

export const STATUS_TONES = {
  // Work in progress or waiting
  queued: "neutral",
  pending: "neutral",
  running: "info",
  // Finished
  succeeded: "success",
  completed: "success",
  failed: "danger",
  delivered: "success",
  cancelled: "warning",
  skipped: "neutral",
  // A pipeline run that succeeded over no reviews: an answer that needs reading, not a success
  empty: "warning",
  // Schedules, invites, meshes, scraper versions
  active: "success",
  paused: "neutral",
  valid: "success",
  expired: "warning",
  revoked: "danger",
  exhausted: "warning",
  archived: "neutral",
  promoted: "success",
  candidate: "info",
  deprecated: "neutral",
  // Reply drafts (docs/pipelines.md, "Reply drafts")
  draft: "info",
  approved: "success",
  discarded: "neutral",
  // Members
  online: "success",
  sendsOnly: "neutral",
  offline: "neutral",
  banned: "danger",
} as const satisfies Record<string, Tone>;

export type KnownStatus = keyof typeof STATUS_TONES;

export function statusTone(status: string): Tone {
  return (STATUS_TONES as Record<string, Tone>)[status] ?? "neutral";
}
