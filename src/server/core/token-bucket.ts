/** Options of a keyed token-bucket limiter (Document 2, "Rate-limit bucket"). */
export interface TokenBucketOptions {
  /** Most tokens a bucket holds; a new key starts full. */
  capacity: number;
  /** Tokens added per minute, accrued per millisecond. */
  refillPerMinute: number;
  /** Buckets whose lastRefill is older than this are removed by sweep(), which take() also runs this often; default 10 minutes. */
  sweepAfterMs?: number;
  /** Most buckets held; past it the least recently used is dropped (default 100,000: a few MB). */
  maxKeys?: number;
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  lastRefill: number;
}

export interface TakeResult {
  allowed: boolean;
  /** Tokens left after this take (whole tokens, rounded down). */
  remaining: number;
  /** Milliseconds until one token is available (0 when allowed). */
  retryAfterMs: number;
  /** Milliseconds until the bucket is full again. */
  resetMs: number;
}

/**
 * One limiter for every rate limit of the product: the status hook, API keys, sign-in and sign-up
 * attempts, invite previews, joins. Its memory is bounded: idle buckets are swept as it is used, and
 * at most `maxKeys` buckets are held (the least recently used goes first).
 */
export class TokenBucketLimiter {
  readonly capacity: number;
  readonly refillPerMinute: number;
  readonly sweepAfterMs: number;
  readonly maxKeys: number;
  private readonly now: () => number;
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep: number;

  constructor(options: TokenBucketOptions) {
    if (!(options.capacity > 0) || !(options.refillPerMinute > 0)) {
      throw new RangeError("capacity and refillPerMinute must be positive");
    }
    this.capacity = options.capacity;
    this.refillPerMinute = options.refillPerMinute;
    this.sweepAfterMs = options.sweepAfterMs ?? 10 * 60_000;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
    this.lastSweep = this.now();
  }

  /** Takes one token for the key (rules 1 to 4). */
  take(key: string): TakeResult {
    const now = this.now();
    if (now - this.lastSweep >= this.sweepAfterMs) this.sweep();
    const perMs = this.refillPerMinute / 60_000;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.capacity, lastRefill: now };
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
      this.buckets.set(key, bucket);
    } else {
      // Most recently used last: the map's first key is the one to drop when full.
      this.buckets.delete(key);
      this.buckets.set(key, bucket);
      const elapsed = Math.max(0, now - bucket.lastRefill);
      bucket.tokens = Math.min(this.capacity, bucket.tokens + elapsed * perMs);
      bucket.lastRefill = now;
    }
    const resetMs = Math.ceil((this.capacity - bucket.tokens) / perMs);
    if (bucket.tokens < 1) {
      return { allowed: false, remaining: 0, retryAfterMs: Math.ceil((1 - bucket.tokens) / perMs), resetMs };
    }
    bucket.tokens -= 1;
    return {
      allowed: true,
      remaining: Math.floor(bucket.tokens),
      retryAfterMs: 0,
      resetMs: Math.ceil((this.capacity - bucket.tokens) / perMs),
    };
  }

  /** Removes buckets idle for longer than the sweep threshold (rule 5); returns how many went. */
  sweep(): number {
    this.lastSweep = this.now();
    const cutoff = this.lastSweep - this.sweepAfterMs;
    let removed = 0;
    for (const [key, bucket] of this.buckets) {
      if (bucket.lastRefill < cutoff) {
        this.buckets.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  /** Number of buckets held (rule 6). */
  get size(): number {
    return this.buckets.size;
  }

  /** Current state of a key's bucket, without refilling it (for tests and metrics). */
  peek(key: string): Readonly<Bucket> | undefined {
    const bucket = this.buckets.get(key);
    return bucket ? { ...bucket } : undefined;
  }
}

/**
 * The IETF httpapi rate-limit headers for one take: `RateLimit-Policy` (capacity per window, where the
 * window is the time to refill a full bucket) and `RateLimit` (remaining tokens and seconds until full),
 * plus `Retry-After` in seconds when the take was denied.
 */
export function rateLimitHeaders(
  limiter: Pick<TokenBucketLimiter, "capacity" | "refillPerMinute">,
  taken: TakeResult,
  name = "default",
): Record<string, string> {
  const windowSeconds = Math.ceil((limiter.capacity / limiter.refillPerMinute) * 60);
  const headers: Record<string, string> = {
    "RateLimit-Policy": `"${name}";q=${limiter.capacity};w=${windowSeconds}`,
    RateLimit: `"${name}";r=${taken.remaining};t=${Math.ceil(taken.resetMs / 1000)}`,
  };
  return { ...headers, ...retryAfterHeader(taken) };
}

/** Whole seconds a refused client is told to wait (at least 1): the value of `Retry-After`. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/**
 * `Retry-After` for a denied take, nothing for an allowed one: the one place this header is written, for
 * answers that carry no `RateLimit` headers of their own (rateLimitHeaders adds it to those).
 */
export function retryAfterHeader(taken: Pick<TakeResult, "allowed" | "retryAfterMs">): Record<string, string> {
  return taken.allowed ? {} : { "Retry-After": String(retryAfterSeconds(taken.retryAfterMs)) };
}
