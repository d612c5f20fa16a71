import type { Db } from "@/server/core/db";
import { Prisma } from "@/server/core/db";
import type { RunPlace } from "../types";
import { selectedPlaceKeys, type TReviewAnalyticsInput } from "./input";
import type { RawReview } from "./model";

/** A review as the loader reads it: the stages' fields plus where it comes from. */
interface LoadedRow extends RawReview {
  place_key: string;
  origin: string;
}

const DAY_MS = 86_400_000;

/**
 * The jobs a run may read and has selected, as SQL conditions on `j` (jobs): those of the read scope
 * (jobs.api_key_id; null = every job), and when job or batch ids are given, only those jobs and the
 * jobs of those batches.
 */
function jobConditions(input: TReviewAnalyticsInput, readScopeApiKeyId: string | null): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (readScopeApiKeyId !== null) conditions.push(Prisma.sql`j.api_key_id = ${readScopeApiKeyId}::uuid`);
  if (input.job_ids || input.batch_ids) {
    conditions.push(
      Prisma.sql`(j.id = ANY(${input.job_ids ?? []}::uuid[]) OR j.batch_id = ANY(${input.batch_ids ?? []}::uuid[]))`,
    );
  }
  return conditions.length ? Prisma.join(conditions, " AND ") : Prisma.sql`TRUE`;
}

function placeConditions(input: TReviewAnalyticsInput): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  const places = selectedPlaceKeys(input);
  if (places) conditions.push(Prisma.sql`r.place_key = ANY(${places}::text[])`);
  if (input.origin !== undefined) conditions.push(Prisma.sql`r.origin = ${input.origin}`);
  return conditions.length ? Prisma.join(conditions, " AND ") : Prisma.sql`TRUE`;
}

function dateConditions(input: TReviewAnalyticsInput): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  // published_at is a timestamp holding UTC: compare it with UTC timestamps, whatever the session's zone.
  const utc = (day: string, plusDays = 0) =>
    new Date(new Date(`${day}T00:00:00.000Z`).getTime() + plusDays * DAY_MS).toISOString().slice(0, 23);
  if (input.from) conditions.push(Prisma.sql`v."publishedAt" >= ${utc(input.from)}::timestamp`);
  if (input.to) conditions.push(Prisma.sql`v."publishedAt" < ${utc(input.to, 1)}::timestamp`);
  return conditions.length ? Prisma.join(conditions, " AND ") : Prisma.sql`TRUE`;
}

/**
 * The names of the places, from the newest job of the scope that collected one of their reviews and
 * knows the name the platform showed (jobs.place_name).
 */
async function placeNames(
  db: Db,
  places: { place_key: string; origin: string }[],
  jobs: Prisma.Sql,
): Promise<Map<string, string>> {
  if (places.length === 0) return new Map();
  const rows = await db.$queryRaw<{ place_key: string; origin: string; name: string | null }[]>`
    SELECT p.place_key, p.origin, (
      SELECT j.place_name FROM reviews r
        JOIN job_reviews jr ON jr.review_id = r.id
        JOIN jobs j ON j.id = jr.job_id
      WHERE r.place_key = p.place_key AND r.origin = p.origin AND j.place_name IS NOT NULL AND ${jobs}
      ORDER BY j.created_at DESC, j.id DESC LIMIT 1
    ) AS name
    FROM unnest(${places.map((p) => p.place_key)}::text[], ${places.map((p) => p.origin)}::text[]) AS p(place_key, origin)`;
  return new Map(rows.filter((r) => r.name !== null).map((r) => [`${r.origin} ${r.place_key}`, r.name as string]));
}

/**
 * Reads the reviews a run request selects, within the read scope: only versions linked (job_reviews)
 * to jobs of the scope, selected by job ids, batch ids and/or place (all given selectors apply), the
 * newest readable version of each review (by collected_at, then id), in the date range, oldest first,
 * at most max_reviews. Also says which places they come from.
 */
export async function loadReviews(
  db: Db,
  input: TReviewAnalyticsInput,
  readScopeApiKeyId: string | null,
): Promise<{ reviews: RawReview[]; places: RunPlace[] }> {
  const jobs = jobConditions(input, readScopeApiKeyId);
  // DISTINCT ON keeps the first row per review in the ORDER BY: the newest version the scope may read.
  const rows = await db.$queryRaw<LoadedRow[]>`
    WITH v AS (
      SELECT DISTINCT ON (r.origin, r.place_key, r.external_id)
        r.id, r.place_key, r.origin, r.author, r.rating, r.text, r.language, r.published_at AS "publishedAt",
        COALESCE(r.owner_reply, '') <> '' AS "ownerReplied", r.owner_reply_at AS "ownerReplyAt"
      FROM reviews r
      WHERE ${placeConditions(input)}
        AND EXISTS (SELECT 1 FROM job_reviews jr JOIN jobs j ON j.id = jr.job_id WHERE jr.review_id = r.id AND ${jobs})
      ORDER BY r.origin, r.place_key, r.external_id, r.collected_at DESC, r.id DESC
    )
    SELECT v.* FROM v WHERE ${dateConditions(input)}
    ORDER BY v."publishedAt" ASC, v.id ASC
    LIMIT ${input.max_reviews}`;
  const counts = new Map<string, { place_key: string; origin: string; reviews: number }>();
  const reviews: RawReview[] = rows.map((r) => {
    const key = `${r.origin} ${r.place_key}`;
    const entry = counts.get(key) ?? { place_key: r.place_key, origin: r.origin, reviews: 0 };
    entry.reviews += 1;
    counts.set(key, entry);
    return {
      id: r.id,
      author: r.author,
      rating: r.rating,
      text: r.text,
      language: r.language,
      publishedAt: r.publishedAt,
      ownerReplied: r.ownerReplied ?? false,
      ownerReplyAt: r.ownerReplyAt ?? null,
      origin: r.origin,
      placeKey: r.place_key,
    };
  });
  const names = await placeNames(db, [...counts.values()], jobs);
  const places = [...counts.entries()]
    .map(([key, p]) => ({ place_key: p.place_key, origin: p.origin, name: names.get(key) ?? null, reviews: p.reviews }))
    .sort((a, b) => b.reviews - a.reviews || a.place_key.localeCompare(b.place_key));
  return { reviews, places };
}

/** Why a run request selected no review: which of its filters left nothing (docs/pipelines.md, "Runs over nothing"). */
export type EmptyReason =
  | "jobs_not_finished"
  | "jobs_have_no_reviews"
  | "place_not_in_jobs"
  | "no_reviews_for_place"
  | "none_in_date_range"
  | "no_reviews";

/**
 * For a request that loaded nothing, finds the filter that left nothing by dropping them one at a time
 * (each count stops at the first row): the date range, then the place within the selected jobs, then
 * the jobs themselves (still queued or running, or finished with no reviews), then the place alone.
 */
export async function emptyReason(
  db: Db,
  input: TReviewAnalyticsInput,
  readScopeApiKeyId: string | null,
): Promise<EmptyReason> {
  const jobs = jobConditions(input, readScopeApiKeyId);
  const any = async (place: Prisma.Sql) =>
    (
      await db.$queryRaw<{ found: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM reviews r JOIN job_reviews jr ON jr.review_id = r.id JOIN jobs j ON j.id = jr.job_id
          WHERE ${place} AND ${jobs}) AS found`
    )[0]?.found === true;
  if ((input.from || input.to) && (await any(placeConditions(input)))) return "none_in_date_range";
  if (input.job_ids || input.batch_ids) {
    if (selectedPlaceKeys(input) && (await any(Prisma.sql`TRUE`))) return "place_not_in_jobs";
    const [open] = await db.$queryRaw<{ found: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM jobs j WHERE ${jobs} AND j.status IN ('queued', 'running')) AS found`;
    return open?.found ? "jobs_not_finished" : "jobs_have_no_reviews";
  }
  return selectedPlaceKeys(input) ? "no_reviews_for_place" : "no_reviews";
}
