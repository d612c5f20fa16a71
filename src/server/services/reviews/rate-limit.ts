import { TokenBucketLimiter } from "@/server/core/token-bucket";

// The per-key limit: the product's one token bucket, capacity = the key's requests per minute,
// refilled continuously. Headers follow the IETF httpapi RateLimit draft (structured fields).

const limiters = new Map<number, TokenBucketLimiter>();

function limiterFor(perMinute: number): TokenBucketLimiter {
  let limiter = limiters.get(perMinute);
  if (!limiter) {
    limiter = new TokenBucketLimiter({ capacity: perMinute, refillPerMinute: perMinute });
    limiters.set(perMinute, limiter);
  }
  return limiter;
}

export interface KeyLimitResult {
  allowed: boolean;
  headers: Record<string, string>;
}

/** Takes one token from the key's bucket; the headers go on every answer, Retry-After on 429. */
export function takeKeyToken(keyId: string, perMinute: number): KeyLimitResult {
  const limiter = limiterFor(perMinute);
  if (limiter.size > 10_000) limiter.sweep();
  const r = limiter.take(keyId);
  const headers: Record<string, string> = {
    "RateLimit-Policy": `"per-key";q=${perMinute};w=60`,
    RateLimit: `"per-key";r=${r.remaining};t=${Math.ceil(r.resetMs / 1000)}`,
  };
  if (!r.allowed) headers["Retry-After"] = String(Math.max(1, Math.ceil(r.retryAfterMs / 1000)));
  return { allowed: r.allowed, headers };
}
