import type { Db } from "@/server/core/db";

export interface PublicStats {
  messagesRouted: number;
  meshesCreated: number;
  peersActive: number;
  lastUpdated: Date;
}

export const STATS_TTL_MS = 60_000;

/** Aggregate counts only (Document 3): messages queued, meshes not archived, live presences. */
export async function computePublicStats(db: Db, now: Date = new Date()): Promise<PublicStats> {
  const [messagesRouted, meshesCreated, peersActive] = await Promise.all([
    db.messageEnvelope.count(),
    db.mesh.count({ where: { archivedAt: null } }),
    db.presence.count({ where: { disconnectedAt: null } }),
  ]);
  return { messagesRouted, meshesCreated, peersActive, lastUpdated: now };
}

/**
 * The stats cached in memory for 60 seconds. Concurrent misses share one computation, so a burst
 * after expiry runs the three counts once.
 */
export class PublicStatsCache {
  private value: PublicStats | undefined;
  private expires = 0;
  private pending: Promise<PublicStats> | undefined;

  constructor(private readonly clock: () => number = Date.now) {}

  async get(db: Db): Promise<{ stats: PublicStats; cache: "HIT" | "MISS" }> {
    if (this.value && this.clock() < this.expires) return { stats: this.value, cache: "HIT" };
    this.pending ??= computePublicStats(db, new Date(this.clock())).finally(() => {
      this.pending = undefined;
    });
    const stats = await this.pending;
    this.value = stats;
    this.expires = this.clock() + STATS_TTL_MS;
    return { stats, cache: "MISS" };
  }
}
