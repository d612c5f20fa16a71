// Every PostgreSQL advisory lock of the product, in one place. A key's value must never change: during a
// rolling upgrade old and new processes exclude each other only while they compute the same key, so each
// definition below keeps the exact form (literal pair, hashtext, hashtextextended, int8) it was first made with.

/** The first half of the two-int4 keys: one number per kind of lock, so their second halves never collide. */
export const LOCK_SPACES = {
  /** The demo seeder's jobs and pipelines (prisma/seed-pipelines.ts): seconds are 1 and 2. */
  demoSeed: 7207,
  /** Counting and inserting a principal's active pipeline executions (second half: hashtext of the principal). */
  activeExecutions: 7208,
  /**
   * The broker store's guard, (7301, 0): every stored batch takes it shared, deleting members or meshes takes it
   * exclusively. Taken inside the SQL functions (prisma/sql/), not from TypeScript.
   */
  messageStore: 7301,
} as const;

/**
 * Session lock that serializes migration runs across processes: the bytes of "rvwmesh!" as an int8. Arbitrary but
 * fixed for this project, and distinct from the key Prisma's engine uses internally (72707369).
 */
export const MIGRATION_LOCK_KEY = 8247911079312844833n;

/** A lock's key as the argument list of a `pg_*advisory*` function: SQL with parameters $1…$n, and their values. */
export interface AdvisoryKey {
  readonly sql: string;
  readonly values: readonly (string | number)[];
}

/** The key of the migration runner's session lock. */
export const migrationLock = (): AdvisoryKey => ({ sql: "$1::bigint", values: [MIGRATION_LOCK_KEY.toString()] });

/** One step of the demo seeder (1: the pipelines, 2: the demo job). */
export const demoSeedLock = (step: 1 | 2): AdvisoryKey => ({
  sql: "$1::int, $2::int",
  values: [LOCK_SPACES.demoSeed, step],
});

/** A principal's count of active pipeline executions. */
export const activeExecutionsLock = (principalKey: string): AdvisoryKey => ({
  sql: "$1::int, hashtext($2)",
  values: [LOCK_SPACES.activeExecutions, principalKey],
});

/** A mesh's connection cap: the count of its live connections and the insert of a new one. */
export const meshCapLock = (meshId: string): AdvisoryKey => ({ sql: "hashtext($1)", values: [`mesh-cap:${meshId}`] });

/** The broker's sweep of expired messages: one node at a time. */
export const ttlSweepLock = (): AdvisoryKey => ({ sql: "hashtext($1)", values: ["broker_ttl_sweep"] });

/** One join of a user into a mesh at a time. */
export const joinLock = (meshId: string, userId: string): AdvisoryKey => ({
  sql: "hashtextextended($1, 0)",
  values: [`join:${meshId}:${userId}`],
});

/** The functions that take or release an advisory lock, as used here. */
export type LockFunction =
  | "pg_advisory_lock"
  | "pg_try_advisory_lock"
  | "pg_advisory_unlock"
  | "pg_advisory_xact_lock"
  | "pg_try_advisory_xact_lock";

/** `SELECT fn(key) AS ok` with the key's parameters, for `client.query(text, values)` or `$executeRawUnsafe`. */
export function lockStatement(fn: LockFunction, key: AdvisoryKey): { text: string; values: (string | number)[] } {
  return { text: `SELECT ${fn}(${key.sql}) AS ok`, values: [...key.values] };
}
