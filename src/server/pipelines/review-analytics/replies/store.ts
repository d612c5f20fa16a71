import type { Db } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { composeReply, replyLanguage, replyReasons } from "./compose";

/** Drafts per INSERT (one JSON parameter). */
const INSERT_BATCH = 5_000;

interface Candidate {
  review_id: string;
  rating: number | null;
  critical: boolean;
  language: string | null;
  positive: string[];
  negative: string[];
  author: string | null;
  review_language: string | null;
  owner_replied: boolean;
}

/**
 * Writes the reply drafts of an execution (docs/pipelines.md, "Reply drafts"): one per stored review
 * of its label rows that needs an answer (replyReasons), from the deterministic templates. Drafts that
 * exist are kept as they are (ON CONFLICT DO NOTHING on (execution, review)), so a second call, a
 * worker's take-over or the list's lazy call never duplicates one nor overwrites an edit. Returns how
 * many it wrote. One read (label rows joined to their reviews by primary key) and one INSERT per 5,000.
 */
export async function storeReplyDrafts(db: Db, executionId: string, now: Date): Promise<number> {
  // The SQL narrows to the rows the rule can accept; replyReasons below is the rule itself.
  const rows = await db.$queryRaw<Candidate[]>`
    SELECT l.review_id, l.rating, l.critical, l.language, l.positive, l.negative, r.author,
      r.language AS review_language, COALESCE(r.owner_reply, '') <> '' AS owner_replied
    FROM pipeline_review_labels l
    JOIN reviews r ON r.id = CASE
      WHEN l.review_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN l.review_id::uuid END
    WHERE l.execution_id = ${executionId}::uuid AND l.kept
      AND (l.rating <= 3 OR cardinality(l.negative) > 0 OR l.critical)
      AND COALESCE(r.owner_reply, '') = ''
    ORDER BY l.review_id`;
  const drafts = rows.flatMap((r) => {
    const reasons = replyReasons({
      rating: r.rating,
      critical: r.critical,
      negative: r.negative,
      positive: r.positive,
      ownerReplied: r.owner_replied,
    });
    if (!reasons.length) return [];
    const reply = composeReply({ ...r, language: replyLanguage(r.language, r.review_language) });
    return [
      {
        id: uuidv7(now.getTime()),
        review_id: r.review_id,
        text: reply.text,
        language: reply.language,
        fallback_from: reply.fallbackFrom,
        reasons,
        rating: r.rating,
        critical: r.critical,
        negative: r.negative,
        positive: r.positive,
      },
    ];
  });
  // Columns hold UTC without a zone, as Prisma writes them.
  const stamp = now.toISOString();
  let written = 0;
  for (let i = 0; i < drafts.length; i += INSERT_BATCH) {
    const batch = JSON.stringify(drafts.slice(i, i + INSERT_BATCH));
    written += await db.$executeRaw`
      INSERT INTO reply_drafts (id, execution_id, review_id, state, text, language, fallback_from, source, reasons, rating,
        critical, negative, positive, created_at, updated_at)
      SELECT d.id, ${executionId}::uuid, d.review_id, 'draft', d.text, d.language, d.fallback_from, 'template', d.reasons,
        d.rating, d.critical, d.negative, d.positive, ${stamp}::timestamptz AT TIME ZONE 'UTC',
        ${stamp}::timestamptz AT TIME ZONE 'UTC'
      FROM jsonb_to_recordset(${batch}::jsonb) AS d(id uuid, review_id text, text text, language text, fallback_from text,
        reasons text[], rating int, critical boolean, negative text[], positive text[])
      ON CONFLICT (execution_id, review_id) DO NOTHING`;
  }
  return written;
}
