import pg from "pg";
import type { z } from "zod";
import type { Place } from "@/generated/prisma/client";
import { Prisma, sqlRows, type Db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { Actor } from "../actor";
import type { ServiceContext } from "../context";
import { readPage } from "../paging";
import { ownedBy, type ReviewActor } from "./access";
import { toJobOut } from "./job-output";
import { copyStream, exportPrincipal, exportStatement } from "./review-export";
import type { ExportFormat } from "./review-export.schema";
import type { TPlaceOut, ZListPlacesInput, ZPlaceExportInput, ZPlaceReviewsInput } from "./places.schema";
import { reviewItemColumns, toReviewOut, type ReviewRow } from "./review-out";
import { containsText } from "@/server/core/text-search";

// Places (docs/review-engine.md, "Places and coverage"): one record per (platform, origin, place key)
// with the facts the platform showed to the last job that read it. A key without the admin scope sees
// the places its own jobs read, and of a place only the reviews its own jobs collected: the rule is in
// every query.

export function toPlaceOut(p: Place): TPlaceOut {
  return {
    id: p.id,
    platform: p.platform,
    origin: p.origin,
    place_key: p.placeKey,
    platform_id: p.platformId,
    name: p.name,
    address: p.address,
    rating: p.rating,
    review_total: p.reviewTotal,
    histogram: (p.histogram as Record<string, number> | null) ?? null,
    first_seen_at: p.firstSeenAt,
    last_seen_at: p.lastSeenAt,
  };
}

/** The places the actor may see: all for administrators, else those its own jobs read. */
function visible(actor: Actor): Prisma.PlaceWhereInput {
  const own = ownedBy(actor);
  return own.apiKeyId ? { jobs: { some: { apiKeyId: own.apiKeyId } } } : {};
}

/** GET /api/places: one page of the visible places, searchable by name, address and platform id. */
export function listPlaces(ctx: ServiceContext<ReviewActor>, input: z.output<typeof ZListPlacesInput>) {
  const { db, actor } = ctx;
  const where: Prisma.PlaceWhereInput = {
    ...visible(actor),
    ...(input.q
      ? {
          OR: [
            { name: containsText(input.q) },
            { address: containsText(input.q) },
            { platformId: containsText(input.q) },
          ],
        }
      : {}),
  };
  const key = input.sort === "name" ? "name" : input.sort === "review_total" ? "reviewTotal" : "lastSeenAt";
  return readPage(
    input,
    () => db.place.count({ where }),
    async (w) =>
      (
        await db.place.findMany({
          where,
          orderBy: [
            { [key]: key === "lastSeenAt" ? input.dir : { sort: input.dir, nulls: "last" } },
            { id: input.dir },
          ],
          ...w,
        })
      ).map(toPlaceOut),
  );
}

async function visiblePlace(db: Db, actor: Actor, placeId: string): Promise<Place> {
  const place = await db.place.findFirst({ where: { id: placeId, ...visible(actor) } });
  if (!place) throw new AppError("NOT_FOUND", "place_not_found");
  return place;
}

/** The caller's jobs' rule as SQL on `jobs j` (true for administrators). */
function ownJobs(actor: Actor): Prisma.Sql {
  const own = ownedBy(actor);
  return own.apiKeyId ? Prisma.sql`j.api_key_id = ${own.apiKeyId}::uuid` : Prisma.sql`true`;
}

/** GET /api/places/{place_id}: the place, how many of its reviews the caller holds, and the caller's latest job of it. */
export async function getPlace(ctx: ServiceContext<ReviewActor>, input: { place_id: string }) {
  const { db, actor } = ctx;
  const placeId = input.place_id;
  const place = await visiblePlace(db, actor, placeId);
  const [counted] = await sqlRows<{ n: number }>(
    db,
    Prisma.sql`SELECT count(DISTINCT r.external_id)::int AS n FROM jobs j JOIN job_reviews jr ON jr.job_id = j.id JOIN reviews r ON r.id = jr.review_id
      WHERE j.place_ref_id = ${place.id}::uuid AND ${ownJobs(actor)}`,
  );
  const latest = await db.job.findFirst({
    where: { placeRefId: place.id, ...ownedBy(actor) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return { ...toPlaceOut(place), collected_reviews: counted?.n ?? 0, latest_job: latest ? toJobOut(latest) : null };
}

const decode = (cursor: string | undefined): string => {
  if (cursor === undefined) return "";
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (!text.startsWith("x:") || text.length > 700 || /[\u0000-\u001f]/.test(text))
    throw new AppError("BAD_REQUEST", "invalid_cursor");
  return text.slice(2);
};

type PlaceFilters = Pick<z.output<typeof ZPlaceReviewsInput>, "since" | "until" | "rating" | "language" | "q">;

/**
 * The place's reviews that the caller's jobs collected, the newest collected version of each platform
 * review, filtered: SQL text of the relation `v` (the export's shape), with every value an escaped
 * literal (the export's COPY takes no parameters; the page uses the same text).
 */
function placeRelation(place: Place, actor: Actor, f: PlaceFilters, after = ""): string {
  const lit = pg.escapeLiteral;
  const own = ownedBy(actor).apiKeyId;
  if (own && !/^[0-9a-f-]{36}$/.test(own)) throw new Error("places: not a uuid");
  const where = ["true"];
  if (f.since) where.push(`v.published_at >= ${lit(f.since.toISOString())}::timestamptz AT TIME ZONE 'UTC'`);
  if (f.until) where.push(`v.published_at < ${lit(f.until.toISOString())}::timestamptz AT TIME ZONE 'UTC'`);
  if (f.rating) where.push(`v.rating = ${Math.trunc(f.rating)}`);
  if (f.language) where.push(`lower(v.language) = lower(${lit(f.language)})`);
  if (f.q) {
    const like = lit(`%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(v.text ILIKE ${like} OR v.author ILIKE ${like})`);
  }
  return `(SELECT DISTINCT ON (r.external_id) r.*, j.id AS job_id
    FROM reviews r JOIN job_reviews jr ON jr.review_id = r.id JOIN jobs j ON j.id = jr.job_id
    WHERE r.platform = ${lit(place.platform)} AND r.origin = ${lit(place.origin)} AND r.place_key = ${lit(place.placeKey)}
      AND r.external_id > ${lit(after)} AND ${own ? `j.api_key_id = '${own}'::uuid` : "true"}
    ORDER BY r.external_id, r.collected_at DESC, j.created_at DESC) v WHERE ${where.join(" AND ")}`;
}

/**
 * GET /api/places/{place_id}/reviews: the place's reviews that the caller's jobs collected, the newest
 * version of each (by its platform id), by platform review id with a keyset cursor; `since` and `until`
 * on the publication date, `rating`, `language`, `q` (text or author). `job_id` is the caller's latest
 * job that collected that version.
 */
export async function placeReviews(ctx: ServiceContext<ReviewActor>, input: z.output<typeof ZPlaceReviewsInput>) {
  const { db, actor } = ctx;
  const place = await visiblePlace(db, actor, input.place_id);
  const relation = placeRelation(place, actor, input, decode(input.cursor));
  const rows = await db.$queryRawUnsafe<ReviewRow[]>(
    `SELECT ${reviewItemColumns("v")}, v.job_id::text AS job_id FROM ${relation} ORDER BY v.external_id LIMIT ${input.limit + 1}`,
  );
  const more = rows.length > input.limit;
  const page = more ? rows.slice(0, input.limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map(toReviewOut),
    next_cursor: more && last ? Buffer.from(`x:${last.external_id}`).toString("base64url") : null,
  };
}

/** GET /api/places/{place_id}/reviews/export: the same reviews (every page, the same filters) as CSV or NDJSON, streamed. */
export async function placeExport(
  ctx: ServiceContext<ReviewActor>,
  input: z.output<typeof ZPlaceExportInput> & { format: ExportFormat; bom?: boolean },
) {
  const { db, actor } = ctx;
  const { format, bom } = input;
  const opts = { bom, principal: exportPrincipal(actor), idleMs: ctx.settings.review.EXPORT_IDLE_TIMEOUT_MS };
  const place = await visiblePlace(db, actor, input.place_id);
  return copyStream(
    db,
    exportStatement(placeRelation(place, actor, input), "v.external_id", format, `place:${place.id}`),
    format,
    opts,
  );
}
