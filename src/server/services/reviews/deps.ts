import type { Db } from "@/server/core/db";
import type { TReviewSettings } from "@/server/queue/settings";
import type { Sealer } from "../meshes/deps";
import type { AttemptRecord } from "./callbacks/deliver";
import type { InlineDeliveries } from "./callbacks/inline";

/** What happens to jobs, told to whoever watches (the worker's metrics, src/worker/metrics.ts); services import no metrics library. */
export interface ReviewObserver {
  /** A run ended its job in a terminal state (called after the write committed). */
  jobFinished?(event: {
    status: "succeeded" | "failed" | "cancelled";
    errorClass: string | null;
    durationMs: number;
  }): void;
}

/** What the review-engine use cases need; the web app and the worker each build one. */
export interface ReviewDeps {
  db: Db;
  /** Seals callback secrets at rest (SECRETS_KEYS). */
  sealer: Sealer;
  settings: TReviewSettings;
  /** Random numbers in [0, 1) for traffic-weighted routing; injectable for tests. */
  random?: () => number;
  /** In the worker: first callback attempts made at once by the loop that ends the job (callbacks/inline.ts). */
  inlineCallbacks?: InlineDeliveries;
  /** In the worker: records callback attempts, those ending together in one statement (default: one each). */
  recordAttempt?: (record: AttemptRecord) => Promise<void>;
  /** In the worker: told when jobs end (its metrics). */
  observer?: ReviewObserver;
}
