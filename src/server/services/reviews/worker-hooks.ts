import type { AttemptRecord } from "./callbacks/attempt-record";
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

/**
 * What only the worker's run of a job does besides ending it: the explicit argument of runClaimedRun
 * (never optional fields of the context that would change what a shared function does).
 */
export interface RunHooks {
  /** First callback attempts made at once by the loop that ends the job (callbacks/inline.ts); null: none. */
  inlineCallbacks: InlineDeliveries | null;
  /** Records callback attempts (the worker's batcher: those ending together in one statement). */
  recordAttempt: (record: AttemptRecord) => Promise<void>;
  /** Told when jobs end (the worker's metrics); null: nobody watches. */
  observer: ReviewObserver | null;
}
