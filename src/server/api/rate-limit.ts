import { db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import { SharedLimiter, type RateLimiter } from "@/server/core/shared-limit";
import { retryAfterHeader, retryAfterSeconds } from "@/server/core/token-bucket";

/** A per-minute limit shared by every process, made on first use (the limit is read from the environment then). */
export function lazyLimiter(name: string, perMinute: () => number): () => RateLimiter {
  let limiter: RateLimiter | undefined;
  return () => {
    if (!limiter) {
      const n = perMinute();
      limiter = new SharedLimiter({ name, capacity: n, refillPerMinute: n, db });
    }
    return limiter;
  };
}

/** Takes one token for `key`, or answers 429 `rate_limited` with Retry-After (and no caching). */
export async function takeOrThrow(
  limiter: RateLimiter,
  key: string,
  responseHeaders: Map<string, string>,
): Promise<void> {
  const taken = await limiter.take(key);
  if (taken.allowed) return;
  for (const [name, value] of Object.entries(retryAfterHeader(taken))) responseHeaders.set(name, value);
  responseHeaders.set("cache-control", "no-store");
  throw new AppError("TOO_MANY_REQUESTS", "rate_limited", { retryAfterSeconds: retryAfterSeconds(taken.retryAfterMs) });
}
