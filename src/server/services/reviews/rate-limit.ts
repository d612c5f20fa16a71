import { db } from "@/server/core/db";
import { SharedLimiter } from "@/server/core/shared-limit";
import { rateLimitHeaders } from "@/server/core/token-bucket";

// The per-key limit: the product's one token bucket, capacity = the key's requests per minute,
// refilled continuously, counted in PostgreSQL so every web process draws from the same bucket.
// Headers follow the IETF httpapi RateLimit draft (structured fields).

const limiters = new Map<number, SharedLimiter>();

function limiterFor(perMinute: number): SharedLimiter {
  let limiter = limiters.get(perMinute);
  if (!limiter) {
    limiter = new SharedLimiter({ name: "api-key", capacity: perMinute, refillPerMinute: perMinute, db });
    limiters.set(perMinute, limiter);
  }
  return limiter;
}

export interface KeyLimitResult {
  allowed: boolean;
  headers: Record<string, string>;
}

/** Takes one token from the key's bucket; the headers go on every answer, Retry-After on 429. */
export async function takeKeyToken(keyId: string, perMinute: number): Promise<KeyLimitResult> {
  const r = await limiterFor(perMinute).take(keyId);
  // A bucket of perMinute tokens refilled at perMinute a minute: the window is 60 s.
  const headers = rateLimitHeaders({ capacity: perMinute, refillPerMinute: perMinute }, r, "per-key");
  return { allowed: r.allowed, headers };
}
