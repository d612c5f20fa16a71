import { AppError } from "@/server/core/errors";

/** What routing needs to know about an active (not deprecated) scraper version. */
export interface RoutableVersion {
  id: string;
  version: string;
  variant: string;
  implementation: string;
  trafficPercent: number;
  /** The version's JSON config (its `platformUrl` names its platform origin). */
  config: unknown;
}

export interface RouteRequest {
  version?: string;
  variant?: string;
}

/** Weighted choice: each candidate's chance is its share of the candidates' sum (uniform if all are 0). */
function weighted<T extends { trafficPercent: number }>(candidates: T[], random: () => number): T | undefined {
  const sum = candidates.reduce((acc, c) => acc + c.trafficPercent, 0);
  if (sum <= 0) return candidates[Math.min(candidates.length - 1, Math.floor(random() * candidates.length))];
  let r = random() * sum;
  for (const c of candidates) {
    if (c.trafficPercent <= 0) continue;
    r -= c.trafficPercent;
    if (r < 0) return c;
  }
  return candidates.filter((c) => c.trafficPercent > 0).at(-1);
}

/**
 * Picks the scraper version of a job among the active versions (docs/review-engine.md, "Routing"):
 * an explicit version (and variant), an explicit variant, or a traffic-weighted choice among the
 * versions whose share is above 0. Throws UNPROCESSABLE when nothing matches.
 */
export function routeVersion(
  active: readonly RoutableVersion[],
  req: RouteRequest,
  random: () => number = Math.random,
): RoutableVersion {
  let picked: RoutableVersion | undefined;
  if (req.version !== undefined || req.variant !== undefined) {
    const candidates = active.filter(
      (v) =>
        (req.version === undefined || v.version === req.version) &&
        (req.variant === undefined || v.variant === req.variant),
    );
    picked = weighted(candidates, random);
    if (!picked) {
      throw new AppError("UNPROCESSABLE", "unknown_scraper_version", {
        version: req.version ?? null,
        variant: req.variant ?? null,
      });
    }
    return picked;
  }
  picked = weighted(
    active.filter((v) => v.trafficPercent > 0),
    random,
  );
  if (!picked) throw new AppError("UNPROCESSABLE", "no_routable_scraper");
  return picked;
}

/** Sum of the traffic shares of active versions; admin changes keep it at most 100. */
export function allocationSum(active: readonly { trafficPercent: number }[]): number {
  return active.reduce((acc, v) => acc + v.trafficPercent, 0);
}
