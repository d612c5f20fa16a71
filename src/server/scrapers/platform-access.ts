import net from "node:net";
import { scraperConfig } from "./config";

/**
 * Whether scrapers may connect to loopback and private addresses for this platform origin
 * (docs/review-engine.md, "Targets"). Yes when its host is a literal address or `localhost` (the
 * operator wrote the address itself; no DNS answer can change it) or when the origin is listed in
 * SCRAPER_PRIVATE_ORIGINS. Any other origin is a name on the internet: every address it resolves to
 * must be public, checked on each connection (no DNS rebinding).
 */
export function platformAllowsPrivate(origin: string): boolean {
  const url = new URL(origin);
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (net.isIP(host) !== 0 || host === "localhost") return true;
  return scraperConfig().SCRAPER_PRIVATE_ORIGINS.includes(url.origin);
}
