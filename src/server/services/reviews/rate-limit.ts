import type { Db } from "@/server/core/db";
import { SharedLimiter } from "@/server/core/shared-limit";
import { rateLimitHeaders } from "@/server/core/token-bucket";
import type { ServiceContext } from "../context";

// The per-key limit: the product's one token bucket, capacity = the key's requests per minute,
// refilled continuously, counted in PostgreSQL so every web process draws from the same bucket.
// Headers follow the IETF httpapi RateLimit draft (structured fields).

// One limiter per rate and database client (the web app has one client: one limiter per rate).
const limiters = new WeakMap<Db, Map<number, SharedLimiter>>();

function limiterFor(db: Db, perMinute: number): SharedLimiter {
  let byRate = limiters.get(db);
  if (!byRate) limiters.set(db, (byRate = new Map()));
  let limiter = byRate.get(perMinute);
  if (!limiter) {
    limiter = new SharedLimiter({ name: "api-key", capacity: perMinute, refillPerMinute: perMinute, db });
    byRate.set(perMinute, limiter);
  }
  return limiter;
}

export interface KeyLimitResult {
  allowed: boolean;
  headers: Record<string, string>;
}

/**
 * Takes one token from the key's bucket (its own rate, else API_KEY_RATE_PER_MINUTE); the headers go
 * on every answer, Retry-After on 429.
 */
export async function takeKeyToken(
  ctx: ServiceContext,
  input: { keyId: string; perMinute: number | null },
): Promise<KeyLimitResult> {
  const { keyId } = input;
  const perMinute = input.perMinute ?? ctx.settings.review.API_KEY_RATE_PER_MINUTE;
  const r = await limiterFor(ctx.db, perMinute).take(keyId);
  // A bucket of perMinute tokens refilled at perMinute a minute: the window is 60 s.
  const headers = rateLimitHeaders({ capacity: perMinute, refillPerMinute: perMinute }, r, "per-key");
  return { allowed: r.allowed, headers };
}
