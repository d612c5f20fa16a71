// The one exponential backoff of the code base: job and callback retries, the mesh client's reconnects, the
// database monitor's pings and the cluster listener's reconnects all take their delays from here.

/** How a backoff grows: `baseMs` is the first delay, each later one `factor` times the one before, never above `capMs`. */
export interface BackoffOptions {
  /** Delay before the first retry (attempt 0), milliseconds. */
  baseMs: number;
  /** Largest delay, milliseconds. */
  capMs: number;
  /** Growth per attempt (default 2). */
  factor?: number;
  /**
   * `"equal"` (default): half of the step fixed, half a uniform draw, rounded to a millisecond, so callers cut off
   * together do not all come back at once yet none sooner than half the step. `"full"`: a uniform draw between 0
   * and the step (the widest spread, for retries that must stay short yet not come together). `"none"`: the step.
   */
  jitter?: "equal" | "full" | "none";
}

/** Delay before retry `attempt` (0-based; a negative attempt counts as 0): `base·factor^attempt`, capped, jittered. */
export function backoff(attempt: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const { baseMs, capMs, factor = 2, jitter = "equal" } = opts;
  const raw = baseMs * factor ** Math.max(0, attempt);
  // factor^attempt overflows to Infinity for a large attempt: that is the cap too.
  const step = Number.isFinite(raw) ? Math.min(capMs, raw) : capMs;
  if (jitter === "none") return step;
  if (jitter === "full") return Math.round(step * random());
  return Math.round(step / 2 + (step / 2) * random());
}
