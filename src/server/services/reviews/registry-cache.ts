import type { Db } from "@/server/core/db";
import type { RoutableVersion } from "./routing";

/** The registry's time-to-live (Document 1, "Limits"). */
export const REGISTRY_TTL_MS = 60_000;

interface Entry {
  at: number;
  versions: Promise<RoutableVersion[]>;
}

const entries = new Map<string, Entry>();

/**
 * Active scraper versions of a platform, read at most once a minute per process; an admin change in
 * this process drops the entry at once (other processes see it within the TTL).
 */
export function activeVersions(db: Db, platform: string, now: number = Date.now()): Promise<RoutableVersion[]> {
  const hit = entries.get(platform);
  if (hit && now - hit.at < REGISTRY_TTL_MS) return hit.versions;
  const versions = db.scraperVersion.findMany({
    where: { platform, deprecated: false },
    select: { id: true, version: true, variant: true, implementation: true, trafficPercent: true, config: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  entries.set(platform, { at: now, versions });
  // A failed read is not cached.
  versions.catch(() => entries.delete(platform));
  return versions;
}

/** Drops the cached registry (called by every admin change). */
export function invalidateRegistry(): void {
  entries.clear();
}
