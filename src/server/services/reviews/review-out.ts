import { Prisma, sqlRows, type Db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { Actor } from "../actor";
import type { ServiceContext } from "../context";
import { ownedBy, type ReviewActor } from "./access";
import { DATE_PRECISIONS } from "@/server/scrapers/types";
import type { TReviewOut } from "./review-out.schema";

// Reviews out (docs/review-engine.md, "Reviews out"): every review a job or a batch collected, page by
// page with a keyset cursor (never OFFSET: page 5,000 costs what page 1 does), and the same rows
// streamed as CSV or NDJSON (review-export.ts). A job's reviews come by review id (a stable order that a cursor can hold);
// a batch's, job by job in the batch's order, each job's by review id.

/** The columns of an export, in order (also the NDJSON fields). */
export const EXPORT_COLUMNS = [
  "id",
  "job_id",
  "external_id",
  "author",
  "rating",
  "text",
  "language",
  "published_at",
  "owner_reply",
  "collected_at",
  "date_precision",
  "owner_reply_at",
  "helpful",
  "photos",
  "reviewer_url",
  "reviewer_review_count",
  "edited_at",
  "translated_text",
  "translated_language",
] as const satisfies readonly (keyof TReviewOut)[];

/** The SELECT list of a stored review (table alias `a`) as a page item, without its job_id. */
export const reviewItemColumns = (
  a: string,
) => `${a}.id::text AS id, ${a}.external_id, ${a}.author, ${a}.rating, ${a}.text, ${a}.language, ${a}.published_at,
  ${a}.owner_reply, ${a}.collected_at, ${a}.date_precision::text AS date_precision, ${a}.owner_reply_at, ${a}.helpful, ${a}.photos, ${a}.reviewer_url,
  ${a}.reviewer_review_count, ${a}.edited_at, ${a}.translated_text, ${a}.translated_language`;

/** A page item as read from the database (photos as stored JSON). */
export type ReviewRow = Omit<TReviewOut, "photos" | "date_precision"> & {
  photos: unknown;
  date_precision: string | null;
};
type Row = ReviewRow;

const NIL_UUID = "00000000-0000-0000-0000-000000000000";
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An opaque cursor: base64url of "<job position>:<review id>" (the position is 0 for a single job). */
function encodeCursor(position: number, reviewId: string): string {
  return Buffer.from(`${position}:${reviewId}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined): { position: number; reviewId: string } {
  if (cursor === undefined) return { position: 0, reviewId: NIL_UUID };
  const m = /^(\d{1,9}):(.+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m || !UUID.test(m[2]!)) throw new AppError("BAD_REQUEST", "invalid_cursor");
  return { position: Number(m[1]), reviewId: m[2]! };
}

/** Up to `limit` reviews of one job after a review id, in id order. */
function jobRows(db: Db, jobId: string, after: string, limit: number): Promise<Row[]> {
  // Straight to the pool as a prepared statement (sqlRows): Prisma's raw-query decoding costs more than the read.
  return sqlRows<Row>(
    db,
    Prisma.sql`
    SELECT ${Prisma.raw(reviewItemColumns("r"))}, jr.job_id::text AS job_id
    FROM job_reviews jr JOIN reviews r ON r.id = jr.review_id
    WHERE jr.job_id = ${jobId}::uuid AND jr.review_id > ${after}::uuid
    ORDER BY jr.review_id
    LIMIT ${limit}`,
  );
}

/** What a page reads from: the jobs in order (one for a job, the batch's in batch order). */
export interface Source {
  jobIds: readonly string[];
}

export async function sourceOf(db: Db, actor: Actor, of: { job_id: string } | { batch_id: string }): Promise<Source> {
  if ("job_id" in of) {
    const job = await db.job.findFirst({ where: { id: of.job_id, ...ownedBy(actor) }, select: { id: true } });
    if (!job) throw new AppError("NOT_FOUND", "job_not_found");
    return { jobIds: [job.id] };
  }
  const batch = await db.batch.findFirst({ where: { id: of.batch_id, ...ownedBy(actor) }, select: { id: true } });
  if (!batch) throw new AppError("NOT_FOUND", "batch_not_found");
  const jobs = await db.job.findMany({
    where: { batchId: batch.id },
    orderBy: [{ batchIndex: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  return { jobIds: jobs.map((j) => j.id) };
}

/** One page of a source from a cursor: each job's reviews after the cursor, job after job. */
async function pageOf(
  db: Db,
  source: Source,
  limit: number,
  cursor: string | undefined,
): Promise<{ rows: Row[]; next: string | null }> {
  const at = decodeCursor(cursor);
  const rows: Row[] = [];
  let position = at.position;
  let after = at.reviewId;
  let lastPosition = position;
  // One more row than the page is read, so a page that ends a source does not promise another.
  while (position < source.jobIds.length && rows.length <= limit) {
    const got = await jobRows(db, source.jobIds[position]!, after, limit + 1 - rows.length);
    // The page's last row (index limit - 1) is in this job's part: the next page starts here.
    if (rows.length < limit && rows.length + got.length >= limit) lastPosition = position;
    rows.push(...got);
    position++;
    after = NIL_UUID;
  }
  if (rows.length <= limit) return { rows, next: null };
  rows.length = limit;
  return { rows, next: encodeCursor(lastPosition, rows[limit - 1]!.id) };
}

/** A page item from its row: photos as a list of URLs, numbers as numbers. */
export const toReviewOut = (r: ReviewRow): TReviewOut => ({
  ...r,
  rating: r.rating === null ? null : Number(r.rating),
  photos: Array.isArray(r.photos) ? r.photos.filter((p): p is string => typeof p === "string") : [],
  date_precision: (DATE_PRECISIONS as readonly string[]).includes(r.date_precision ?? "")
    ? (r.date_precision as TReviewOut["date_precision"])
    : null,
});
const toOut = toReviewOut;

/** GET /api/jobs/{job_id}/reviews and /api/batches/{batch_id}/reviews: one page and the next cursor. */
export async function reviewPage(
  ctx: ServiceContext<ReviewActor>,
  input: ({ job_id: string } | { batch_id: string }) & { limit: number; cursor?: string | undefined },
) {
  const { db, actor } = ctx;
  const source = await sourceOf(db, actor, input);
  const { rows, next } = await pageOf(db, source, input.limit, input.cursor);
  return { items: rows.map(toOut), next_cursor: next };
}
