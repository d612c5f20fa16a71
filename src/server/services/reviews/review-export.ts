import { Readable, Transform } from "node:stream";
import { copyOut, type Db } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { ServiceContext } from "../context";
import type { ReviewActor } from "./access";
import type { ExportFormat } from "./review-export.schema";
import { EXPORT_COLUMNS, sourceOf, UUID, type Source } from "./review-out";

// Exports of reviews (docs/review-engine.md, "Reviews out"): the pages' rows, in the pages' order, as
// one COPY … TO STDOUT formatted by PostgreSQL and passed through with backpressure.

/** A cell a spreadsheet would run as a formula (= + - @ tab CR) gets a leading apostrophe (as csvCell does). */
const guarded = (column: string) =>
  `CASE WHEN left(${column}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${column} ELSE ${column} END`;
/** A stored UTC timestamp as JSON writes a Date (2026-01-31T12:00:00.000Z). */
const iso = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const TEXT_COLUMNS: ReadonlySet<string> = new Set([
  "external_id",
  "author",
  "text",
  "language",
  "owner_reply",
  "photos",
  "reviewer_url",
  "translated_text",
  "translated_language",
]);

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
  const columns = EXPORT_COLUMNS.map(
    (c) => `${format === "csv" && TEXT_COLUMNS.has(c) ? guarded(cells[c]) : cells[c]} AS ${c}`,
  ).join(", ");
  const rows = `SELECT /* export ${label} */ ${columns} FROM ${relation} ORDER BY ${order}`;
  // NDJSON: row_to_json keeps the columns' order and writes compact JSON, as JSON.stringify does.
  const query = format === "csv" ? rows : `SELECT /* export ${label} */ row_to_json(t) FROM (${rows}) t`;
  // NDJSON: CSV mode with a quote and a delimiter that JSON text never holds raw, so each line is the JSON as it is.
  return format === "csv"
    ? `COPY (${query}) TO STDOUT WITH (FORMAT csv, HEADER)`
    : `COPY (${query}) TO STDOUT WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`;
}

/** The jobs' reviews as the export's relation: one job, or a batch's jobs in the batch's order (as sourceOf gives them), each job's by review id. */
function jobsRelation(source: Source): { relation: string; order: string } {
  for (const id of source.jobIds) if (!UUID.test(id)) throw new Error("export: not a uuid");
  const ids = source.jobIds.length
    ? source.jobIds.map((id, i) => `('${id}'::uuid, ${i})`).join(", ")
    : "(NULL::uuid, 0)";
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
export async function exportStream(
  ctx: ServiceContext<ReviewActor>,
  input: ({ job_id: string } | { batch_id: string }) & { format: ExportFormat; bom?: boolean },
): Promise<ReadableStream<Uint8Array>> {
  const { db, actor } = ctx;
  const { format, bom, ...of } = input;
  const opts = { bom, principal: exportPrincipal(actor), idleMs: ctx.settings.review.EXPORT_IDLE_TIMEOUT_MS };
  const { relation, order } = jobsRelation(await sourceOf(db, actor, of));
  return copyStream(
    db,
    exportStatement(relation, order, format, "job_id" in of ? `job:${of.job_id}` : `batch:${of.batch_id}`),
    format,
    opts,
  );
}

// Process-wide (on globalThis): each export route's bundle may hold its own copy of this module.
const EXPORTS = Symbol.for("review-mesh.exports-running.v2");
const running = globalThis as unknown as { [EXPORTS]?: { n: number; principals: Set<string> } };
const exportsNow = () => (running[EXPORTS] ??= { n: 0, principals: new Set() });

/** Exports at once per process: a third of the database pool (DB_POOL_MAX), so downloads never hold every connection. */
export function exportLimit(): number {
  return Math.max(1, Math.floor(Number(process.env.DB_POOL_MAX ?? 10) / 3));
}

/** Who an export counts against: an API key, an administrator, or the system; each holds one slot at a time. */
export function exportPrincipal(actor: ReviewActor): string {
  if (actor.kind === "apiKey") return `key:${actor.apiKeyId}`;
  if (actor.kind === "administrator") return `user:${actor.userId}`;
  return "system";
}

/** What copyStream needs besides the statement. */
export interface CopyStreamOptions {
  /** A UTF-8 byte-order mark before a CSV. */
  bom?: boolean;
  /** exportPrincipal of the actor: at most one export of it runs at a time (issue 41, attack 5). */
  principal: string;
  /** A reader that takes nothing for this long (its socket not draining) loses its export: EXPORT_IDLE_TIMEOUT_MS. */
  idleMs: number;
}

const busy = (limit: "per_principal" | "per_process") =>
  new AppError("TOO_MANY_REQUESTS", "export_busy", { retry_after_seconds: 5, limit });

/**
 * A COPY statement's bytes as a web stream; CSV with CRLF record ends (and a byte-order mark when
 * asked). At most exportLimit() run at once in a process, and at most one per principal (a key or an
 * administrator), so one slow client cannot hold the slots everyone shares (beyond: 429 export_busy);
 * one whose reader takes nothing for `idleMs` is ended (the download is cut, its slot freed).
 */
export async function copyStream(
  db: Db,
  statement: string,
  format: ExportFormat,
  opts: CopyStreamOptions,
): Promise<ReadableStream<Uint8Array>> {
  const now = exportsNow();
  if (now.principals.has(opts.principal)) throw busy("per_principal");
  if (now.n >= exportLimit()) throw busy("per_process");
  now.n++;
  now.principals.add(opts.principal);
  let counted = true;
  const done = () => {
    if (counted) {
      now.n--;
      now.principals.delete(opts.principal);
    }
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
  const idle = setTimeout(() => guard.destroy(new Error("export reader idle")), opts.idleMs);
  // Wired by hand, not with pipeline(): a failure anywhere must error the last stream (the download is
  // cut, never a short body that ends cleanly), and the last stream closing (the reader left, the idle
  // timer) must stop the copy.
  const stages: (Readable | Transform)[] = format === "csv" ? [copy, crlfRecords(opts.bom), guard] : [copy, guard];
  for (let i = 0; i < stages.length - 1; i++) {
    const stage = stages[i]!;
    stage.pipe(stages[i + 1] as Transform);
    stage.on("error", (error) => guard.destroy(error));
  }
  guard.once("close", () => {
    clearTimeout(idle);
    done();
    for (const stage of stages) if (!stage.destroyed) stage.destroy();
  });
  return Readable.toWeb(guard) as unknown as ReadableStream<Uint8Array>;
}
