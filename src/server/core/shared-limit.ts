import { createHash } from "node:crypto";
import { z } from "zod";
import { Prisma, sqlRows, type Db } from "./db";
import { logger } from "./logger";
import { TokenBucketLimiter, type TakeResult } from "./token-bucket";

/** What callers of a limit need: its numbers (for the RateLimit headers) and an async take. */
export interface RateLimiter {
  readonly capacity: number;
  readonly refillPerMinute: number;
  take(key: string): Promise<TakeResult>;
}

/** An in-process limiter behind the async interface (tests of callers, limits that stay local). */
export function localLimiter(limiter: TokenBucketLimiter): RateLimiter {
  return {
    capacity: limiter.capacity,
    refillPerMinute: limiter.refillPerMinute,
    take: async (key) => limiter.take(key),
  };
}

export interface SharedLimiterOptions {
  /** The limit's name, part of every key ("join", "signin-email", ...). */
  name: string;
  capacity: number;
  refillPerMinute: number;
  /** The database, or a getter for it (the web app's `db()` is made on first use). */
  db: Db | (() => Db);
  /** Processes with the same scope share buckets (RATE_LIMIT_SCOPE; default empty). */
  scope?: string;
  /** Clock in milliseconds; default the database's clock, one clock for every process. */
  now?: () => number;
  /** A take that has no answer from the database after this long uses the local bucket (default 1000 ms). */
  timeoutMs?: number;
  /** The sweep drops buckets idle for longer than this (and full again, so nothing is lost); default 10 minutes. */
  sweepAfterMs?: number;
  /** How often take() starts a bounded sweep, per instance (default 60 s). */
  sweepEveryMs?: number;
  /** Told once per fallback episode when the database does not answer (default: a warning in the log). */
  onFallback?: (error: unknown) => void;
}

const ZScope = z
  .string()
  .max(64)
  .regex(/^[\w.-]*$/, "letters, digits, '.', '_' or '-'");
let envScope: string | undefined;

/** RATE_LIMIT_SCOPE, read and checked once: processes with the same value share their limits. */
export function rateLimitScope(): string {
  if (envScope === undefined) {
    const parsed = ZScope.safeParse(process.env.RATE_LIMIT_SCOPE ?? "");
    if (!parsed.success) throw new Error(`RATE_LIMIT_SCOPE: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    envScope = parsed.data;
  }
  return envScope;
}

type Row = { tokens: number };

/**
 * A token bucket (docs/security.md, "Shared limits") counted in the `rate_limits` table, so every
 * process draws from the same bucket. One statement per take: an upsert that refills, takes and
 * stores under the row lock. `tokens` holds the tokens left minus one when the take was denied, so
 * the answer tells allowed (>= 0) from denied (< 0) without reading the row twice.
 * When the database does not answer, the take falls back to an in-process bucket of the same limit:
 * the limit then holds per process (N processes allow at most N times it) until the database is back.
 */
export class SharedLimiter implements RateLimiter {
  readonly name: string;
  readonly capacity: number;
  readonly refillPerMinute: number;
  private readonly prefix: string;
  private readonly getDb: () => Db;
  private readonly now?: () => number;
  private readonly timeoutMs: number;
  private readonly sweepEveryMs: number;
  private readonly sweepAfterMs: number;
  private readonly onFallback: (error: unknown) => void;
  private readonly local: TokenBucketLimiter;
  private lastSweep = Date.now();
  private fallingBack = false;

  constructor(options: SharedLimiterOptions) {
    if (!(options.capacity >= 1) || !(options.refillPerMinute > 0))
      throw new RangeError("capacity must be at least 1 and refillPerMinute positive");
    this.name = options.name;
    this.capacity = options.capacity;
    this.refillPerMinute = options.refillPerMinute;
    this.prefix = `${options.scope ?? rateLimitScope()}/${options.name}/${options.capacity}/${options.refillPerMinute}/`;
    const { db } = options;
    this.getDb = typeof db === "function" ? db : () => db;
    if (options.now) this.now = options.now;
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
    this.sweepAfterMs = options.sweepAfterMs ?? 600_000;
    this.onFallback =
      options.onFallback ??
      ((error) =>
        logger().warn(
          { event: "rate_limit_fallback", limit: options.name, error: error instanceof Error ? error.name : "unknown" },
          "database unreachable: limit counted per process",
        ));
    this.local = new TokenBucketLimiter({
      capacity: this.capacity,
      refillPerMinute: this.refillPerMinute,
      ...(options.now ? { now: options.now } : {}),
    });
  }

  /** The stored key of a principal: the limit's prefix and a SHA-256 (e-mails and addresses never in clear). */
  keyOf(principal: string): string {
    return this.prefix + createHash("sha256").update(principal).digest("base64url");
  }

  /** Takes one token of the principal's bucket, shared by every process of the scope. */
  async take(principal: string): Promise<TakeResult> {
    if (Date.now() - this.lastSweep >= this.sweepEveryMs) {
      this.lastSweep = Date.now();
      this.sweep().catch(() => {});
    }
    try {
      const stored = await this.withTimeout(this.takeInDb(this.keyOf(principal)));
      this.fallingBack = false;
      return this.result(stored);
    } catch (error) {
      if (!this.fallingBack) this.onFallback(error);
      this.fallingBack = true;
      return this.local.take(principal);
    }
  }

  /**
   * Deletes up to `batch` buckets idle for longer than the sweep threshold (rule 5) that are full again
   * (no row means a full bucket, so nothing is lost); returns how many. It covers every limit's rows
   * when on the database's clock.
   */
  async sweep(batch = 1000): Promise<number> {
    const now = this.nowSql();
    // A limiter on a clock of its own (tests) sweeps only its rows: other rows are on the database's clock.
    const own = this.now ? Prisma.sql`AND left(key, ${this.prefix.length}::int) = ${this.prefix}` : Prisma.empty;
    const idle = Prisma.sql`full_at_ms < ${now} AND last_refill_ms < ${now} - ${this.sweepAfterMs}::float8 ${own}`;
    const rows = await sqlRows<{ n: number }>(
      this.getDb(),
      Prisma.sql`WITH gone AS (
        DELETE FROM rate_limits WHERE ${idle} AND key IN (
          SELECT key FROM rate_limits WHERE ${idle} ORDER BY full_at_ms LIMIT ${batch}::int FOR UPDATE SKIP LOCKED)
        RETURNING 1)
      SELECT count(*)::int AS n FROM gone`,
    );
    return rows[0]?.n ?? 0;
  }

  /** Buckets of this limit held in the table (rule 6), for metrics and tests. */
  async count(): Promise<number> {
    const rows = await sqlRows<{ n: number }>(
      this.getDb(),
      Prisma.sql`SELECT count(*)::int AS n FROM rate_limits WHERE left(key, ${this.prefix.length}::int) = ${this.prefix}`,
    );
    return rows[0]?.n ?? 0;
  }

  /** A principal's bucket as stored, without refilling it (for tests). */
  async peek(principal: string): Promise<{ tokens: number; lastRefill: number } | undefined> {
    const rows = await sqlRows<{ tokens: number; last_refill_ms: number }>(
      this.getDb(),
      Prisma.sql`SELECT tokens, last_refill_ms FROM rate_limits WHERE key = ${this.keyOf(principal)}`,
    );
    const row = rows[0];
    return row
      ? { tokens: row.tokens < 0 ? Number(row.tokens) + 1 : Number(row.tokens), lastRefill: Number(row.last_refill_ms) }
      : undefined;
  }

  private nowSql(): Prisma.Sql {
    return this.now
      ? Prisma.sql`${this.now()}::float8`
      : Prisma.sql`(extract(epoch FROM clock_timestamp()) * 1000)::float8`;
  }

  private async takeInDb(key: string): Promise<number> {
    const cap = this.capacity;
    const perMs = this.refillPerMinute / 60_000;
    // The bucket after refill: a stored negative value is a denial's "tokens - 1".
    const refilled = Prisma.sql`least(${cap}::float8, (CASE WHEN b.tokens < 0 THEN b.tokens + 1 ELSE b.tokens END)
      + greatest(0, EXCLUDED.last_refill_ms - b.last_refill_ms) * ${perMs}::float8)`;
    const rows = await sqlRows<Row>(
      this.getDb(),
      Prisma.sql`INSERT INTO rate_limits AS b (key, tokens, last_refill_ms, full_at_ms)
        SELECT ${key}, ${cap}::float8 - 1, t.now, t.now + 1 / ${perMs}::float8 FROM (SELECT ${this.nowSql()} AS now) t
        ON CONFLICT (key) DO UPDATE SET
          tokens = ${refilled} - 1,
          last_refill_ms = greatest(b.last_refill_ms, EXCLUDED.last_refill_ms),
          full_at_ms = greatest(b.last_refill_ms, EXCLUDED.last_refill_ms)
            + (${cap}::float8 - CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END) / ${perMs}::float8
        RETURNING tokens`,
    );
    const row = rows[0];
    if (!row) throw new Error("rate limit upsert returned no row");
    return Number(row.tokens);
  }

  private result(stored: number): TakeResult {
    const perMs = this.refillPerMinute / 60_000;
    const allowed = stored >= 0;
    const tokens = allowed ? stored : stored + 1;
    const resetMs = Math.ceil((this.capacity - tokens) / perMs);
    if (!allowed) return { allowed, remaining: 0, retryAfterMs: Math.ceil((1 - tokens) / perMs), resetMs };
    return { allowed, remaining: Math.floor(tokens), retryAfterMs: 0, resetMs };
  }

  private withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`rate limit: no answer from the database in ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      timer.unref();
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }
}
