// The one in-memory cache of the code base: entries live `ttlMs` and at most `maxEntries` are kept, so no
// cache grows with its keys (registry versions, public stats, parsed public keys, opened secrets, model labels).

/** Bounds of a TtlCache. */
export interface TtlCacheOptions {
  /** Most entries kept; setting a new key when full drops the oldest written one. */
  maxEntries: number;
  /** How long an entry is served after it was written, milliseconds (Infinity: bounded by size alone). */
  ttlMs: number;
  /** The clock, milliseconds (default Date.now). */
  now?: () => number;
}

/**
 * A map whose entries expire `ttlMs` after they were written and that holds at most `maxEntries`. Entries are
 * kept in write order: a write moves its key to the newest place, and the oldest goes first when full (with one
 * TTL for all, the oldest written is also the first to expire). `at` arguments read or write at a given time
 * instead of the clock's.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: TtlCacheOptions) {
    if (!(options.maxEntries >= 1)) throw new RangeError("maxEntries must be at least 1");
    if (!(options.ttlMs > 0)) throw new RangeError("ttlMs must be positive");
    this.maxEntries = options.maxEntries;
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
  }

  /** The live value of `key`, or undefined when it is absent or expired (an expired entry is dropped). */
  get(key: K, at: number = this.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (at < entry.expiresAt) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** True when `key` has a live value. */
  has(key: K, at: number = this.now()): boolean {
    return this.get(key, at) !== undefined;
  }

  /** Writes `value` for `key`, live for `ttlMs` from `at`; drops the oldest entry when the cache is full. */
  set(key: K, value: V, at: number = this.now()): this {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, expiresAt: at + this.ttlMs });
    return this;
  }

  /** Forgets `key`. */
  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }
}
