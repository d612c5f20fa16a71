import { backoff } from "@/server/core/backoff";

/** Outcome of one delivery attempt, from the receiver's answer (docs/review-engine.md, "Callbacks"). */
export type AttemptVerdict = "delivered" | "retry" | "stop";

/** 2xx delivers; 410 stops; 408, 429, 5xx, timeouts and network errors retry; other answers stop. */
export function verdictOf(status: number | null): AttemptVerdict {
  if (status === null) return "retry";
  if (status >= 200 && status < 300) return "delivered";
  if (status === 408 || status === 429 || status >= 500) return "retry";
  return "stop";
}

/**
 * Delay before attempt n+1 after n failed attempts: base·2^(n−1), capped, with jitter (a uniform
 * draw between half and all of it), so receivers that come back are not hit by every sender at once.
 */
export function backoffMs(
  failedAttempts: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  return backoff(failedAttempts - 1, { baseMs, capMs: maxMs, jitter: "equal" }, random);
}
