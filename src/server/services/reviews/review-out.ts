import { Readable, Transform } from "node:stream";
import { z } from "zod";
import { copyOut, Prisma, sqlRows, type Db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { Actor } from "../actor";
import { ownedBy } from "./access";
import { DATE_PRECISIONS } from "@/server/scrapers/types";
import { ZBatchIdInput, ZJobIdInput } from "./schemas";

// Reviews out (docs/review-engine.md, "Reviews out"): every review a job or a batch collected, page by
// page with a keyset cursor (never OFFSET: page 5,000 costs what page 1 does), and the same rows
// streamed as CSV or NDJSON. A job's reviews come by review id (a stable order that a cursor can hold);
// a batch's, job by job in the batch's order, each job's by review id.

/** Most reviews one page holds; also the page size of an export's reads. */
export const REVIEW_PAGE_MAX = 1000;

const ZCursor = z.string().trim().min(1).max(200).meta({ description: "next_cursor of the previous page" });
export const ZReviewPageInput = z.object({
  limit: z.coerce.number().int().min(1).max(REVIEW_PAGE_MAX).default(100),
  cursor: ZCursor.optional(),
});
export const ZJobReviewsInput = ZJobIdInput.extend(ZReviewPageInput.shape);
export const ZBatchReviewsInput = ZBatchIdInput.extend(ZReviewPageInput.shape);

const ZDateNull = z.date().nullable().meta({ override: { type: ["string", "null"], format: "date-time" } });
export const ZReviewOut = z.object({
  id: z.string(),
  job_id: z.string(),
  external_id: z.string(),
  author: z.string().nullable(),
  rating: z.number().int().nullable(),
  text: z.string().nullable(),
  language: z.string().nullable(),
  published_at: ZDateNull,
  owner_reply: z.string().nullable(),
  collected_at: z.date().meta({ override: { type: "string", format: "date-time" } }),
  /** How precise published_at is: exact, day, month or year (the platform wrote "2 months ago"); null when not known. */
  date_precision: z.enum(DATE_PRECISIONS).nullable(),
  owner_reply_at: ZDateNull,
  helpful: z.number().int().nullable(),
  photos: z.array(z.string()),
  reviewer_url: z.string().nullable(),
  reviewer_review_count: z.number().int().nullable(),
  edited_at: ZDateNull,
  /** The platform's translation of `text` (the original) and its language. */
  translated_text: z.string().nullable(),
  translated_language: z.string().nullable(),
});
export type TReviewOut = z.output<typeof ZReviewOut>;
export const ZReviewPageOut = z.object({ items: z.array(ZReviewOut), next_cursor: z.string().nullable() });

/** The columns of an export, in order (also the NDJSON fields). */
export const EXPORT_COLUMNS = [
  "id", "job_id", "external_id", "author", "rating", "text", "language", "published_at", "owner_reply", "collected_at",
  "date_precision", "owner_reply_at", "helpful", "photos", "reviewer_url", "reviewer_review_count", "edited_at", "translated_text", "translated_language",
] as const satisfies readonly (keyof TReviewOut)[];

/** The SELECT list of a stored review (table alias `a`) as a page item, without its job_id. */
export const reviewItemColumns = (a: string) => `${a}.id::text AS id, ${a}.external_id, ${a}.author, ${a}.rating, ${a}.text, ${a}.language, ${a}.published_at,
  ${a}.owner_reply, ${a}.collected_at, ${a}.date_precision::text AS date_precision, ${a}.owner_reply_at, ${a}.helpful, ${a}.photos, ${a}.reviewer_url,
  ${a}.reviewer_review_count, ${a}.edited_at, ${a}.translated_text, ${a}.translated_language`;

/** A page item as read from the database (photos as stored JSON). */
export type ReviewRow = Omit<TReviewOut, "photos" | "date_precision"> & { photos: unknown; date_precision: string | null };
type Row = ReviewRow;

const NIL_UUID = "00000000-0000-0000-0000-000000000000";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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
  return sqlRows<Row>(db, Prisma.sql`
    SELECT ${Prisma.raw(reviewItemColumns("r"))}, jr.job_id::text AS job_id
    FROM job_reviews jr JOIN reviews r ON r.id = jr.review_id
    WHERE jr.job_id = ${jobId}::uuid AND jr.review_id > ${after}::uuid
    ORDER BY jr.review_id
    LIMIT ${limit}`);
}

/** What a page reads from: the jobs in order (one for a job, the batch's in batch order). */
interface Source {
  jobIds: readonly string[];
}

async function sourceOf(db: Db, actor: Actor, of: { job_id: string } | { batch_id: string }): Promise<Source> {
  if ("job_id" in of) {
    const job = await db.job.findFirst({ where: { id: of.job_id, ...ownedBy(actor) }, select: { id: true } });
    if (!job) throw new AppError("NOT_FOUND", "job_not_found");
    return { jobIds: [job.id] };
  }
  const batch = await db.batch.findFirst({ where: { id: of.batch_id, ...ownedBy(actor) }, select: { id: true } });
  if (!batch) throw new AppError("NOT_FOUND", "batch_not_found");
  const jobs = await db.job.findMany({ where: { batchId: batch.id }, orderBy: [{ batchIndex: "asc" }, { id: "asc" }], select: { id: true } });
  return { jobIds: jobs.map((j) => j.id) };
}

/** One page of a source from a cursor: each job's reviews after the cursor, job after job. */
async function pageOf(db: Db, source: Source, limit: number, cursor: string | undefined): Promise<{ rows: Row[]; next: string | null }> {
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
  date_precision: (DATE_PRECISIONS as readonly string[]).includes(r.date_precision ?? "") ? (r.date_precision as TReviewOut["date_precision"]) : null,
});
const toOut = toReviewOut;

/** GET /api/jobs/{job_id}/reviews and /api/batches/{batch_id}/reviews: one page and the next cursor. */
export async function reviewPage(db: Db, actor: Actor, input: ({ job_id: string } | { batch_id: string }) & { limit: number; cursor?: string | undefined }) {
  const source = await sourceOf(db, actor, input);
  const { rows, next } = await pageOf(db, source, input.limit, input.cursor);
  return { items: rows.map(toOut), next_cursor: next };
}

export const EXPORT_FORMATS = ["csv", "ndjson"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A cell a spreadsheet would run as a formula (= + - @ tab CR) gets a leading apostrophe (as csvCell does). */
const guarded = (column: string) => `CASE WHEN left(${column}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${column} ELSE ${column} END`;
/** A stored UTC timestamp as JSON writes a Date (2026-01-31T12:00:00.000Z). */
const iso = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const TEXT_COLUMNS: ReadonlySet<string> = new Set(["external_id", "author", "text", "language", "owner_reply", "photos", "reviewer_url", "translated_text", "translated_language"]);

/**
 * The export statement over `relation`: SQL text of a relation `v` with the columns id, job_id,
 * external_id, author, rating, text, language, published_at, owner_reply, collected_at, ordered by
 * `order` (COPY takes no parameters: the relation is built from validated or escaped values only).
 */
export function exportStatement(relation: string, order: string, format: ExportFormat, label: string): string {
  // The label (e.g. "job:<id>") leads the statement, so an operator sees what an export reads in
  // pg_stat_activity (whose text is cut at track_activity_query_size).
  if (!/^[a-z]+:[0-9a-f-]{36}$/.test(label)) throw new Error("export: bad label");
  const cells: Record<(typeof EXPORT_COLUMNS)[number], string> = {
    id: "v.id",
    job_id: "v.job_id",
    external_id: "v.external_id",
    author: "v.author",
    rating: "v.rating",
    text: "v.text",
    language: "v.language",
    published_at: iso("v.published_at"),
    owner_reply: "v.owner_reply",
    collected_at: iso("v.collected_at"),
    date_precision: "v.date_precision",
    owner_reply_at: iso("v.owner_reply_at"),
    helpful: "v.helpful",
    // CSV: the URLs separated by spaces; NDJSON: a list.
    // (Most reviews have none: the array is only taken apart when there is one.)
    photos:
      format === "csv"
        ? "CASE WHEN v.photos IS NULL OR v.photos = '[]'::jsonb THEN NULL ELSE array_to_string(ARRAY(SELECT jsonb_array_elements_text(v.photos)), ' ') END"
        : "COALESCE(v.photos, '[]'::jsonb)",
    reviewer_url: "v.reviewer_url",
    reviewer_review_count: "v.reviewer_review_count",
    edited_at: iso("v.edited_at"),
    translated_text: "v.translated_text",
    translated_language: "v.translated_language",
  };
  const columns = EXPORT_COLUMNS.map((c) => `${format === "csv" && TEXT_COLUMNS.has(c) ? guarded(cells[c]) : cells[c]} AS ${c}`).join(", ");
  const rows = `SELECT /* export ${label} */ ${columns} FROM ${relation} ORDER BY ${order}`;
  // NDJSON: row_to_json keeps the columns' order and writes compact JSON, as JSON.stringify does.
  const query = format === "csv" ? rows : `SELECT /* export ${label} */ row_to_json(t) FROM (${rows}) t`;
  // NDJSON: CSV mode with a quote and a delimiter that JSON text never holds raw, so each line is the JSON as it is.
  return format === "csv" ? `COPY (${query}) TO STDOUT WITH (FORMAT csv, HEADER)` : `COPY (${query}) TO STDOUT WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`;
}

/** The jobs' reviews as the export's relation: one job, or a batch's jobs in the batch's order (as sourceOf gives them), each job's by review id. */
function jobsRelation(source: Source): { relation: string; order: string } {
  for (const id of source.jobIds) if (!UUID.test(id)) throw new Error("export: not a uuid");
  const ids = source.jobIds.length ? source.jobIds.map((id, i) => `('${id}'::uuid, ${i})`).join(", ") : "(NULL::uuid, 0)";
  return {
    relation: `(SELECT r.*, jr.job_id, j.position FROM (VALUES ${ids}) AS j(id, position) JOIN job_reviews jr ON jr.job_id = j.id JOIN reviews r ON r.id = jr.review_id) v`,
    order: "v.position, v.id",
  };
}

const CRLF = Buffer.from("\r\n");

/**
 * PostgreSQL ends CSV records with LF; RFC 4180 with CRLF. Turns each LF outside a quoted value into
 * CRLF (line breaks inside a value stay as they are), across chunk boundaries; `bom` first.
 */
export function crlfRecords(bom = false): Transform {
  let quoted = false;
  let first = true;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const parts: Buffer[] = [];
      if (first && bom) parts.push(Buffer.from("\uFEFF"));
      first = false;
      // Jumps between quotes and line feeds with indexOf (native), each position searched once.
      let from = 0;
      let at = 0;
      let quote = chunk.indexOf(34);
      let feed = chunk.indexOf(10);
      while (at < chunk.length) {
        if (quoted) {
          if (quote === -1) break;
          quoted = false;
          at = quote + 1;
          quote = chunk.indexOf(34, at);
          if (feed !== -1 && feed < at) feed = chunk.indexOf(10, at);
        } else if (feed !== -1 && (quote === -1 || feed < quote)) {
          parts.push(chunk.subarray(from, feed), CRLF);
          from = at = feed + 1;
          feed = chunk.indexOf(10, at);
        } else if (quote !== -1) {
          quoted = true;
          at = quote + 1;
          quote = chunk.indexOf(34, at);
        } else break;
      }
      parts.push(chunk.subarray(from));
      done(null, Buffer.concat(parts));
    },
    flush(done) {
      done(null, first && bom ? Buffer.from("\uFEFF") : undefined);
    },
  });
}

/**
 * The reviews of a job or batch as a stream of CSV (a header row, RFC 4180 quoting, CRLF, cells a
 * spreadsheet would run as formulas prefixed with an apostrophe) or NDJSON (one object a line, the
 * pages' fields), in the pages' order. PostgreSQL formats the rows (COPY … TO STDOUT: one statement,
 * one snapshot) and the bytes pass through with backpressure, so memory stays flat whatever the size.
 * A failed read errors the stream (the download is cut, never short and silent); a reader that leaves
 * stops the copy. Ownership is checked before the first byte (NOT_FOUND is thrown, not streamed).
 */
export async function exportStream(db: Db, actor: Actor, of: { job_id: string } | { batch_id: string }, format: ExportFormat, opts: { bom?: boolean } = {}): Promise<ReadableStream<Uint8Array>> {
  const { relation, order } = jobsRelation(await sourceOf(db, actor, of));
  return copyStream(db, exportStatement(relation, order, format, "job_id" in of ? `job:${of.job_id}` : `batch:${of.batch_id}`), format, opts);
}

/** A reader that takes nothing for this long loses its export (its connection goes back to the pool). */
const EXPORT_IDLE_MS = 60_000;
// Process-wide (on globalThis): each export route's bundle may hold its own copy of this module.
const EXPORTS = Symbol.for("review-mesh.exports-running");
const running = globalThis as unknown as { [EXPORTS]?: { n: number } };
const exportsNow = () => (running[EXPORTS] ??= { n: 0 });

/** Exports at once per process: a third of the database pool (DB_POOL_MAX), so downloads never hold every connection. */
export function exportLimit(): number {
  return Math.max(1, Math.floor(Number(process.env.DB_POOL_MAX ?? 10) / 3));
}

/**
 * A COPY statement's bytes as a web stream; CSV with CRLF record ends (and a byte-order mark when
 * asked). At most exportLimit() run at once in a process (beyond: 429 export_busy), and one whose
 * reader takes nothing for EXPORT_IDLE_MS is ended (the download is cut).
 */
export async function copyStream(db: Db, statement: string, format: ExportFormat, opts: { bom?: boolean } = {}): Promise<ReadableStream<Uint8Array>> {
  const now = exportsNow();
  if (now.n >= exportLimit()) throw new AppError("TOO_MANY_REQUESTS", "export_busy", { retry_after_seconds: 5 });
  now.n++;
  let counted = true;
  const done = () => {
    if (counted) now.n--;
    counted = false;
  };
  let copy: Readable;
  try {
    copy = await copyOut(db, statement);
  } catch (error) {
    done();
    throw error;
  }
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      idle.refresh();
      next(null, chunk);
    },
  });
  const idle = setTimeout(() => guard.destroy(new Error("export reader idle")), EXPORT_IDLE_MS);
  // Wired by hand, not with pipeline(): a failure anywhere must error the last stream (the download is
  // cut, never a short body that ends cleanly), and the last stream closing (the reader left, the idle
  // timer) must stop the copy.
  const stages: (Readable | Transform)[] = format === "csv" ? [copy, crlfRecords(opts.bom), guard] : [copy, guard];
  for (let i = 0; i < stages.length - 1; i++) {
    const stage = stages[i]!;
    stage.pipe(stages[i + 1] as Transform);
    stage.once("error", (error) => guard.destroy(error));
  }
  guard.once("close", () => {
    clearTimeout(idle);
    done();
    for (const stage of stages) if (!stage.destroyed) stage.destroy();
  });
  return Readable.toWeb(guard) as unknown as ReadableStream<Uint8Array>;
}
