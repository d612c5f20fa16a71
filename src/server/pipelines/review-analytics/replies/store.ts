import { Prisma, type Db } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { composeReply, replyLanguage, replyReasons } from "./compose";
import { modelReplies, type ReplyWriter } from "./llm-replies";

/** Drafting through a language model: the writer and how many drafts of a run it may write. */
export interface ReplyModel {
  writer: ReplyWriter;
  /** Drafts per run the model writes (the most important first); the rest keep their templates. */
  max: number;
}

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
  /** The review's text, read only when a model drafts. */
  text?: string | null;
}

/**
 * Writes the reply drafts of an execution (docs/pipelines.md, "Reply drafts"): one per stored review
 * of its label rows that needs an answer (replyReasons), from the deterministic templates. Drafts that
 * exist are kept as they are (ON CONFLICT DO NOTHING on (execution, review)), so a second call, a
 * worker's take-over or the list's lazy call never duplicates one nor overwrites an edit (nor asks a
 * model again for a draft that exists). With `model`, the `max` most important drafts are the model's
 * (2 requests at once), each keeping its template when the model fails. Returns how many it wrote and
 * how many of them the model wrote. One read (label rows joined to their reviews by primary key) and
 * one INSERT per 5,000.
 */
export async function storeReplyDrafts(
  db: Db,
  executionId: string,
  now: Date,
  model: ReplyModel | null = null,
): Promise<{ written: number; model: number; modelFailed: number }> {
  // The SQL narrows to the rows the rule can accept; replyReasons below is the rule itself.
  const rows = await db.$queryRaw<Candidate[]>`
    SELECT l.review_id, l.rating, l.critical, l.language, l.positive, l.negative, r.author,
      r.language AS review_language, COALESCE(r.owner_reply, '') <> '' AS owner_replied,
      ${model ? Prisma.sql`left(r.text, 2000)` : Prisma.sql`NULL`} AS text
    FROM pipeline_review_labels l
    JOIN reviews r ON r.id = CASE
      WHEN l.review_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN l.review_id::uuid END
    WHERE l.execution_id = ${executionId}::uuid AND l.kept
      AND (l.rating <= 3 OR cardinality(l.negative) > 0 OR l.critical)
      AND COALESCE(r.owner_reply, '') = ''
      AND NOT EXISTS (SELECT 1 FROM reply_drafts x WHERE x.execution_id = l.execution_id AND x.review_id = l.review_id)
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
        source: "template" as "template" | "llm",
        prompt: { language: reply.language, author: r.author, text: r.text ?? null, template: reply.text },
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
  let fromModel = 0;
  let modelFailed = 0;
  if (model && drafts.length) {
    // The most important first, as the page lists them: health and safety, then the fewest stars.
    const order = drafts
      .map((d, i) => i)
      .sort(
        (a, b) =>
          Number(drafts[b]!.critical) - Number(drafts[a]!.critical) ||
          (drafts[a]!.rating ?? 6) - (drafts[b]!.rating ?? 6),
      );
    const asked = await modelReplies(
      order.map((i) => {
        const d = drafts[i]!;
        return { ...d.prompt, rating: d.rating, critical: d.critical, negative: d.negative, positive: d.positive };
      }),
      model.writer,
      { max: model.max },
    );
    asked.replies.forEach((reply, k) => {
      const d = drafts[order[k]!]!;
      if (reply === null) return;
      d.text = reply;
      d.source = "llm";
      fromModel += 1;
    });
    modelFailed = asked.failed;
  }
  // Columns hold UTC without a zone, as Prisma writes them.
  const stamp = now.toISOString();
  let written = 0;
  for (let i = 0; i < drafts.length; i += INSERT_BATCH) {
    const batch = JSON.stringify(drafts.slice(i, i + INSERT_BATCH).map(({ prompt: _, ...d }) => d));
    written += await db.$executeRaw`
      INSERT INTO reply_drafts (id, execution_id, review_id, state, text, language, fallback_from, source, reasons, rating,
        critical, negative, positive, created_at, updated_at)
      SELECT d.id, ${executionId}::uuid, d.review_id, 'draft', d.text, d.language, d.fallback_from, d.source, d.reasons,
        d.rating, d.critical, d.negative, d.positive, ${stamp}::timestamptz AT TIME ZONE 'UTC',
        ${stamp}::timestamptz AT TIME ZONE 'UTC'
      FROM jsonb_to_recordset(${batch}::jsonb) AS d(id uuid, review_id text, source text, text text, language text, fallback_from text,
        reasons text[], rating int, critical boolean, negative text[], positive text[])
      ON CONFLICT (execution_id, review_id) DO NOTHING`;
  }
  return { written, model: fromModel, modelFailed };
}
