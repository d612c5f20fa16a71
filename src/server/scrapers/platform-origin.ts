/**
 * The platform origin of a scraper version (docs/review-engine.md, "Targets"): its config's
 * `platformUrl`, else DEMO_PLATFORM_URL; scheme, host and port only. Submission and the worker use
 * this one function, so a job is checked against the origin its scrape will read.
 */
export function platformOrigin(config: unknown, fallbackUrl: string): string {
  const configured =
    config && typeof config === "object" ? (config as { platformUrl?: unknown }).platformUrl : undefined;
  return new URL(typeof configured === "string" ? configured : fallbackUrl).origin;
}

/** A link the platform gave, made absolute on its origin; null when it points anywhere else (another host is not the platform's). */
export function linkOnOrigin(link: string | null | undefined, origin: string | undefined): string | null {
  if (!link || !origin) return null;
  try {
    const url = new URL(link, origin);
    return url.origin === origin ? url.toString() : null;
  } catch {
    return null;
  }
}
