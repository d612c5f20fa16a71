import { Prisma, sqlRows } from "@/server/core/db";
import type { SystemActor, VisitorActor } from "../actor";
import type { ServiceContext } from "../context";

// Single-use proofs across broker nodes (docs/protocol.md, "Connecting"). A node first checks its own
// memory (NonceCache, no round trip for a replay on the same node), then this table, which every node
// shares: the insert succeeds once per key while the key is live. One statement, no transaction.

/**
 * Records a proof's key until `ttlMs` from now; false when it was already used and has not expired.
 * An expired row of the same key is taken over (its proof's timestamp is outside the window by then).
 * Part of authenticating a request, so its actor is the visitor the request still is.
 */
export async function claimNonce(
  ctx: ServiceContext<VisitorActor>,
  input: { key: string; ttlMs: number },
): Promise<boolean> {
  const { key, ttlMs } = input;
  const rows = await sqlRows<{ key: string }>(
    ctx.db,
    Prisma.sql`INSERT INTO used_nonces (key, expires_at)
      VALUES (${key}, (now() AT TIME ZONE 'UTC') + ${ttlMs}::int * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at
        WHERE used_nonces.expires_at <= (now() AT TIME ZONE 'UTC')
      RETURNING key`,
  );
  return rows.length === 1;
}

/** Deletes expired keys, at most `limit` at a time; returns how many. */
export async function sweepUsedNonces(
  ctx: ServiceContext<SystemActor>,
  input: { limit?: number } = {},
): Promise<number> {
  const limit = input.limit ?? 10_000;
  return ctx.db.$executeRaw`
    DELETE FROM used_nonces WHERE key IN (
      SELECT key FROM used_nonces WHERE expires_at <= (now() AT TIME ZONE 'UTC') LIMIT ${limit}
    )`;
}
