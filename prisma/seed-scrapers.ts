import type { Db } from "../src/server/core/db";

/**
 * Demo scraper versions (docs/review-engine.md, "Demo registry"): v1 drives the browser on layout 1
 * only, so places on layout 2 fail with layout_changed (drift); v2 handles both layouts and runs as a
 * canary; http-json reads the JSON API; noop is for benchmarks (0 %). Shares sum to 100.
 */
export const DEMO_SCRAPER_VERSIONS = [
  {
    version: "v1",
    variant: "default",
    implementation: "browser-v1",
    trafficPercent: 50,
    description: "Browser, layout 1 only",
  },
  {
    version: "v2",
    variant: "canary",
    implementation: "browser-v2",
    trafficPercent: 30,
    description: "Browser, layouts 1 and 2",
  },
  { version: "v2", variant: "json", implementation: "http-json", trafficPercent: 20, description: "JSON reviews API" },
  { version: "noop", variant: "bench", implementation: "noop", trafficPercent: 0, description: "No-op (benchmarks)" },
] as const;

/** Registers the demo versions once (an existing registry is left as the administrators made it). */
export async function seedScraperVersions(db: Db): Promise<number> {
  if ((await db.scraperVersion.count({ where: { platform: "platform" } })) > 0) return 0;
  const { count } = await db.scraperVersion.createMany({
    data: DEMO_SCRAPER_VERSIONS.map((v) => ({ platform: "platform", ...v })),
    skipDuplicates: true,
  });
  return count;
}
