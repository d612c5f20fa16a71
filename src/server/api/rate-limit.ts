import { AppError } from "@/server/core/errors";
import { TokenBucketLimiter } from "@/server/core/token-bucket";

/** A per-minute limiter made on first use (the limit is read from the environment then). */
export function lazyLimiter(perMinute: () => number): () => TokenBucketLimiter {
  let limiter: TokenBucketLimiter | undefined;
  return () => {
    if (!limiter) {
      const n = perMinute();
      limiter = new TokenBucketLimiter({ capacity: n, refillPerMinute: n });
    }
    return limiter;
  };
}

/** Takes one token for `key`, or answers 429 `rate_limited` with Retry-After (and no caching). */
export function takeOrThrow(limiter: TokenBucketLimiter, key: string, responseHeaders: Map<string, string>): void {
  const taken = limiter.take(key);
  if (taken.allowed) return;
  const retryAfterSeconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
  responseHeaders.set("retry-after", String(retryAfterSeconds));
  responseHeaders.set("cache-control", "no-store");
  throw new AppError("TOO_MANY_REQUESTS", "rate_limited", { retryAfterSeconds });
}
