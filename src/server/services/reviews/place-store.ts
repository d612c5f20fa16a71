import { createHash } from "node:crypto";
import { Prisma } from "@/server/core/db";
import type { PlaceFacts } from "@/server/scrapers/types";
import type { ReviewSource } from "./review-store";

/** The histogram as stored and shown: {"1": n, …, "5": n}. */
export function histogramJson(h: PlaceFacts["histogram"]): Record<"1" | "2" | "3" | "4" | "5", number> | null {
  return h ? { "1": h[0], "2": h[1], "3": h[2], "4": h[3], "5": h[4] } : null;
}

/**
 * The id of the place record of (platform, origin, place key): a name-based UUID (version 8, from
 * SHA-256), the same in every process, so a job's end can name its place without reading it back.
 */
export function placeIdOf(source: ReviewSource): string {
  const b = createHash("sha256")
    .update(`${source.platform}\0${source.origin}\0${source.placeKey}`)
    .digest()
    .subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The place a run read, to be written with its end (finishJob). */
export interface PlaceSeen {
  source: ReviewSource;
  facts: PlaceFacts & { platformId?: string | undefined };
}

/**
 * A CTE (`pl`) that creates the place record on first sight and updates it with the facts this read
 * saw (a fact the read did not see keeps its earlier value); nothing when `seen` is null. Safe against
 * a concurrent job of the same place: the id is the one unique index (derived from platform, origin
 * and place key), so it is the conflict target of every racing insert; with a second unique index a
 * racing insert could fail on whichever index is not the target (PostgreSQL checks those as usual).
 */
export function placeUpsertCte(seen: PlaceSeen | null, at: Date): Prisma.Sql {
  if (!seen) return Prisma.sql`pl AS (SELECT NULL::uuid AS id WHERE false)`;
  const { source, facts } = seen;
  return Prisma.sql`pl AS (
    INSERT INTO places (id, platform, origin, place_key, platform_id, name, address, rating, review_total, histogram, first_seen_at, last_seen_at)
    VALUES (${placeIdOf(source)}::uuid, ${source.platform}, ${source.origin}, ${source.placeKey}, ${facts.platformId ?? null}, ${facts.name ?? null},
      ${facts.address ?? null}, ${facts.rating ?? null}::float8, ${facts.reviewCount ?? null}::int, ${JSON.stringify(histogramJson(facts.histogram))}::jsonb,
      ${at}::timestamptz AT TIME ZONE 'UTC', ${at}::timestamptz AT TIME ZONE 'UTC')
    ON CONFLICT (id) DO UPDATE SET
      platform_id = COALESCE(EXCLUDED.platform_id, places.platform_id), name = COALESCE(EXCLUDED.name, places.name),
      address = COALESCE(EXCLUDED.address, places.address), rating = COALESCE(EXCLUDED.rating, places.rating),
      review_total = COALESCE(EXCLUDED.review_total, places.review_total),
      histogram = CASE WHEN EXCLUDED.histogram = 'null'::jsonb THEN places.histogram ELSE EXCLUDED.histogram END,
      last_seen_at = GREATEST(places.last_seen_at, EXCLUDED.last_seen_at)
    RETURNING id
  )`;
}
