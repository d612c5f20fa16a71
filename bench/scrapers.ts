/**
 * Reviews per second of each scraper against the demo platform (in this process, on a free port, no
 * rate limit): every scraper collects the same places, side by side with the http-json scraper as
 * the baseline of the same run.
 *   npx tsx bench/scrapers.ts [places=20] [reviews=100] [concurrency=4]
 */
import { createDemoPlatform } from "../src/demo-platform/server";
import { closeScrapers, getScraper, type ScrapeTarget } from "../src/server/scrapers";

const places = Number(process.argv[2] ?? 20);
const limit = Number(process.argv[3] ?? 100);
const concurrency = Number(process.argv[4] ?? 4);

const platform = createDemoPlatform({ places: places * 2, settings: { rateLimit: { capacity: 1, perMinute: 0 } } });
const base = await platform.listen(0);
const ids = platform.dataset.places
  .filter((p) => !p.special && p.reviewCount >= limit)
  .slice(0, places)
  .map((p) => p.id);
if (ids.length < places) throw new Error(`only ${ids.length} places have ${limit} reviews`);

/** Scrapes every place with `concurrency` scrapes at a time; returns reviews and seconds. */
async function run(implementation: string): Promise<{ reviews: number; seconds: number }> {
  const scraper = getScraper(implementation);
  if (!scraper) throw new Error(`no scraper ${implementation}`);
  const queue = [...ids];
  let reviews = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const target: ScrapeTarget = { platformId: id, limit, sort: "newest" };
        const result = await scraper.scrape(target, { signal: AbortSignal.timeout(120_000), platformUrl: base });
        if (implementation !== "noop" && result.reviews.length !== limit)
          throw new Error(`${implementation} got ${result.reviews.length} reviews of ${id}`);
        reviews += result.reviews.length;
      }
    }),
  );
  return { reviews, seconds: (performance.now() - t0) / 1000 };
}

const cases: { implementation: string; layout: "1" | "2" }[] = [
  { implementation: "http-json", layout: "1" },
  { implementation: "browser-v1", layout: "1" },
  { implementation: "browser-v2", layout: "1" },
  { implementation: "browser-v2", layout: "2" },
  { implementation: "noop", layout: "1" },
];

// Warm-up: launch the browser and compile the platform's code paths before anything is timed.
await getScraper("browser-v2")?.scrape(
  { platformId: ids[0] ?? "p-0001", limit: 5, sort: "newest" },
  { signal: AbortSignal.timeout(60_000), platformUrl: base },
);

console.log(`demo platform ${base}: ${ids.length} places x ${limit} reviews, ${concurrency} scrapes at a time`);
const rows: { name: string; reviews: number; seconds: number; perSecond: number }[] = [];
for (const c of cases) {
  platform.updateSettings({ layout: c.layout });
  const { reviews, seconds } = await run(c.implementation);
  rows.push({ name: `${c.implementation} (layout ${c.layout})`, reviews, seconds, perSecond: reviews / seconds });
}
const baseline = rows[0]?.perSecond ?? NaN;
for (const r of rows) {
  const rate =
    r.reviews === 0
      ? "n/a (no reviews)"
      : `${r.perSecond.toFixed(0).padStart(8)} reviews/s  ${(r.perSecond / baseline).toFixed(3)} x http-json`;
  console.log(
    `${r.name.padEnd(26)} ${String(r.reviews).padStart(6)} reviews in ${r.seconds.toFixed(2).padStart(7)} s  ${rate}`,
  );
}
const noop = rows.at(-1);
if (noop) console.log(`noop: ${(ids.length / noop.seconds).toFixed(0)} scrapes/s (the harness's own ceiling)`);

await closeScrapers();
await platform.close();
