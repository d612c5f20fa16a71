import { Prisma, sqlRows, type Db } from "@/server/core/db";

// Single-use proofs across broker nodes (docs/protocol.md, "Connecting"). A node first checks its own
// memory (NonceCache, no round trip for a replay on the same node), then this table, which every node
// shares: the insert succeeds once per key while the key is live. One statement, no transaction.

/**
 * Records a proof's key until `ttlMs` from now; false when it was already used and has not expired.
 * An expired row of the same key is taken over (its proof's timestamp is outside the window by then).
 */
export async function claimNonce(db: Db, key: string, ttlMs: number): Promise<boolean> {
  const rows = await sqlRows<{ key: string }>(
    db,
    Prisma.sql`INSERT INTO used_nonces (key, expires_at)
      VALUES (${key}, (now() AT TIME ZONE 'UTC') + ${ttlMs}::int * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at
        WHERE used_nonces.expires_at <= (now() AT TIME ZONE 'UTC')
      RETURNING key`,
  );
  return rows.length === 1;
}

/** Deletes expired keys, at most `limit` at a time; returns how many. */
export async function sweepUsedNonces(db: Db, limit = 10_000): Promise<number> {
  return db.$executeRaw`
    DELETE FROM used_nonces WHERE key IN (
      SELECT key FROM used_nonces WHERE expires_at <= (now() AT TIME ZONE 'UTC') LIMIT ${limit}
    )`;
}
