import { DEFAULT_STOP_AFTER_KNOWN } from "./review-changes";
import type { Batch, Job } from "@/generated/prisma/client";
import type { TBatchOut, TJobOut } from "./job-output.schema";

/** A job row as the API shows it (never the sealed callback secret). */
export function toJobOut(j: Job): TJobOut {
  return {
    id: j.id,
    status: j.status,
    priority: j.priority,
    requester_client_id: j.requesterClientId,
    requester_source: j.requesterSource,
    requester_purpose: j.requesterPurpose,
    batch_id: j.batchId,
    batch_index: j.batchIndex,
    callback_url: j.callbackUrl,
    callback_state: j.callbackState,
    callback_attempts: j.callbackAttempts,
    callback_last_status: j.callbackLastStatus,
    callback_last_error: j.callbackLastError,
    callback_delivered_at: j.callbackDeliveredAt,
    platform: j.platform,
    place_url: j.placeUrl,
    platform_id: j.placeId,
    place_name: j.placeName ?? null,
    review_limit: j.reviewLimit,
    sort: j.sort,
    since: j.sinceDate,
    language: j.language,
    requested_version: j.requestedVersion,
    requested_variant: j.requestedVariant,
    scraper_version: j.scraperVersion,
    scraper_variant: j.scraperVariant,
    attempts: j.attempts,
    review_count: j.reviewCount,
    error_class: j.errorClass,
    error_message: j.errorMessage,
    created_at: j.createdAt,
    started_at: j.startedAt,
    finished_at: j.finishedAt,
    duration_ms: j.durationMs,
    cancel_requested_at: j.cancelRequestedAt ?? null,
    place_id: j.placeRefId ?? null,
    coverage: {
      collected: j.reviewCount,
      platform_total: j.platformTotal ?? null,
      share: j.platformTotal
        ? Math.round((Math.min(j.reviewCount, j.platformTotal) / j.platformTotal) * 1000) / 1000
        : null,
      oldest_review_at: j.oldestReviewAt ?? null,
      stop_reason: j.stopReason ?? null,
    },
    mode: j.mode,
    stop_after_known: j.mode === "new_only" ? (j.stopAfterKnown ?? DEFAULT_STOP_AFTER_KNOWN) : null,
    changes:
      j.newReviews === null
        ? null
        : { new: j.newReviews, updated: j.updatedReviews ?? 0, unchanged: j.unchangedReviews ?? 0 },
  };
}

/** A batch row with its progress: counts by state and the finished share in whole percent. */
export function toBatchOut(b: Batch): TBatchOut {
  const finished = b.succeededJobs + b.failedJobs + b.cancelledJobs;
  return {
    id: b.id,
    name: b.name,
    status: b.status,
    priority: b.priority,
    requester_client_id: b.requesterClientId,
    requester_source: b.requesterSource,
    requester_purpose: b.requesterPurpose,
    callback_url: b.callbackUrl,
    callback_state: b.callbackState,
    total_jobs: b.totalJobs,
    counts: {
      queued: b.queuedJobs,
      running: b.runningJobs,
      succeeded: b.succeededJobs,
      failed: b.failedJobs,
      cancelled: b.cancelledJobs,
    },
    finished_jobs: finished,
    percent: b.totalJobs === 0 ? 100 : Math.floor((finished * 100) / b.totalJobs),
    created_at: b.createdAt,
    completed_at: b.completedAt,
    cancelled_at: b.cancelledAt,
  };
}
