import type { Db, Prisma } from "@/server/core/db";
import { TtlCache } from "@/server/core/ttl-cache";

export interface PublicStats {
  messagesRouted: number;
  meshesCreated: number;
  peersActive: number;
  lastUpdated: Date;
}

export const STATS_TTL_MS = 60_000;

/**
 * Aggregate counts only (Document 3, "counts messages queued, meshes not archived, presences with
 * disconnectedAt null"), in one statement (one snapshot). `messagesRouted` counts the messages the
 * broker accepted into its queue and still holds: every stored envelope within its time to live
 * (`MESSAGE_TTL_MS`), delivered or not; an expired one stops counting at once, before the sweep
 * deletes it (docs/mesh-api.md, "Public stats").
 */
export async function computePublicStats(
  db: Db | Prisma.TransactionClient,
  now: Date = new Date(),
): Promise<PublicStats> {
  const [row] = await db.$queryRaw<{ messages: number; meshes: number; peers: number }[]>`
    SELECT (SELECT count(*) FROM message_envelopes WHERE expires_at > ${now}::timestamptz AT TIME ZONE 'UTC')::int AS messages,
      (SELECT count(*) FROM meshes WHERE archived_at IS NULL)::int AS meshes,
      (SELECT count(*) FROM presences WHERE disconnected_at IS NULL)::int AS peers`;
  return {
    messagesRouted: row?.messages ?? 0,
    meshesCreated: row?.meshes ?? 0,
    peersActive: row?.peers ?? 0,
    lastUpdated: now,
  };
}

/**
 * The stats cached in memory for 60 seconds. Concurrent misses share one computation, so a burst
 * after expiry runs the three counts once.
 */
export class PublicStatsCache {
  private readonly value: TtlCache<"stats", PublicStats>;
  private pending: Promise<PublicStats> | undefined;

  constructor(private readonly clock: () => number = Date.now) {
    this.value = new TtlCache({ maxEntries: 1, ttlMs: STATS_TTL_MS, now: clock });
  }

  async get(db: Db): Promise<{ stats: PublicStats; cache: "HIT" | "MISS" }> {
    const hit = this.value.get("stats");
    if (hit) return { stats: hit, cache: "HIT" };
    this.pending ??= computePublicStats(db, new Date(this.clock())).finally(() => {
      this.pending = undefined;
    });
    const stats = await this.pending;
    this.value.set("stats", stats);
    return { stats, cache: "MISS" };
  }
}
