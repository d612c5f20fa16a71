import { platformOrigin } from "@/server/scrapers/platform-origin";
import type { RoutableVersion } from "./routing";

// A job's target must be on its scraper version's platform origin (docs/review-engine.md,
// "Targets"): a `platform_id` always is (the scraper builds the URL on that origin); a `place_url`
// must have exactly that scheme, host and port, and no credentials. Anything else is refused at
// submission, so no request of the worker ever goes anywhere a client chose.

/** A target refused at submission: its index in the request, why, and the origin it had to be on. */
export interface RefusedTarget {
  index: number;
  reason: "origin_mismatch" | "credentials";
  allowed_origin: string;
}

/** The targets (with the versions routing chose for them, index for index) that are off their origin. */
export function refusedTargets(
  targets: readonly { place_url?: string }[],
  versions: readonly RoutableVersion[],
  fallbackPlatformUrl: string,
): RefusedTarget[] {
  const refused: RefusedTarget[] = [];
  targets.forEach((t, index) => {
    const version = versions[index];
    if (!t.place_url || !version) return;
    const allowed = platformOrigin(version.config, fallbackPlatformUrl);
    const url = new URL(t.place_url);
    if (url.username || url.password) refused.push({ index, reason: "credentials", allowed_origin: allowed });
    else if (url.origin !== allowed) refused.push({ index, reason: "origin_mismatch", allowed_origin: allowed });
  });
  return refused;
}
