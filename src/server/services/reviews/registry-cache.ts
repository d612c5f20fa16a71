import type { Db } from "@/server/core/db";
import { TtlCache } from "@/server/core/ttl-cache";
import type { RoutableVersion } from "./routing";

/** The registry's time-to-live (Document 1, "Limits"). */
export const REGISTRY_TTL_MS = 60_000;

// One entry per platform: a handful of keys.
const entries = new TtlCache<string, Promise<RoutableVersion[]>>({ maxEntries: 100, ttlMs: REGISTRY_TTL_MS });

/**
 * Active scraper versions of a platform, read at most once a minute per process; an admin change in
 * this process drops the entry at once (other processes see it within the TTL).
 */
export function activeVersions(db: Db, platform: string, now: number = Date.now()): Promise<RoutableVersion[]> {
  const hit = entries.get(platform, now);
  if (hit) return hit;
  const versions = db.scraperVersion.findMany({
    where: { platform, deprecated: false },
    select: { id: true, version: true, variant: true, implementation: true, trafficPercent: true, config: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  entries.set(platform, versions, now);
  // A failed read is not cached.
  versions.catch(() => entries.delete(platform));
  return versions;
}

/** Drops the cached registry (called by every admin change). */
export function invalidateRegistry(): void {
  entries.clear();
}
