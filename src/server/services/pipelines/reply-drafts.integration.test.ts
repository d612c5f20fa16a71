// Issue 46, point 5: a run writes a reply draft for each review that needs an answer (low stars, a
// complaint, a health-and-safety case; not yet answered on the platform) in the review's language;
// drafts are edited, approved, discarded and reopened with their state tracked; another key can
// neither see nor change them; re-running the draft step duplicates nothing; the run's aggregates
// carry the reply rate and the median response time.
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/core/errors";
import { storeReplyDrafts } from "@/server/pipelines/review-analytics/replies/store";
import type { ReviewContent } from "@/server/services/reviews/review-store";
import type { Actor } from "@/server/services/actor";
import { testDb, uid } from "@/test/helpers";
import { actorOf, makeUser } from "@/test/mesh-fixtures";
import { rejectionOf } from "@/test/rejection";
import { collectedJob, ctxOf, makeApiKey, systemCtx } from "@/test/pipeline-fixtures";
import { executePipeline } from "./execute-pipeline";
import { getWidgetData } from "./execution-views";
import {
  approveReplyDraft,
  discardReplyDraft,
  editReplyDraft,
  listReplyDrafts,
  reopenReplyDraft,
} from "./reply-drafts";
import { ZEditReplyDraftInput, ZListReplyDraftsInput } from "./reply-drafts.schema";
import { runExecution } from "./run-execution";

const db = testDb();
afterAll(() => db.$disconnect());
const PIPELINE = "review-analytics";
const WRITE = ["jobs:read", "jobs:write"] as const;

const review = (externalId: string, r: Partial<ReviewContent>): ReviewContent => ({
  externalId,
  author: null,
  rating: null,
  text: null,
  language: null,
  publishedAt: new Date("2026-10-05T12:00:00Z"),
  ownerReply: null,
  ...r,
});

const REVIEWS = [
  review("low-en", {
    author: "Anna K.",
    rating: 2,
    language: "en",
    text: "The food was cold and greasy. We waited over an hour for our mains. The staff were friendly though.",
  }),
  review("critical-es", {
    author: "Lucía",
    rating: 2,
    language: "es",
    text: "Comimos el marisco y por la noche toda la familia tuvo una intoxicación alimentaria. Acabamos en urgencias.",
  }),
  review("fr", { author: "Marc", rating: 1, language: "fr", text: "Service très lent, plats froids, une honte." }),
  review("low-de", {
    author: "Jonas",
    rating: 2,
    language: "de",
    text: "Das Essen war kalt und wir haben ewig auf einen Tisch gewartet.",
    publishedAt: new Date("2026-11-02T12:00:00Z"),
  }),
  // Praise only: no draft.
  review("good-de", {
    author: "Petra",
    rating: 5,
    language: "de",
    text: "Super Essen und sehr freundlicher Service, wir kommen gerne wieder!",
    ownerReply: "Danke, Petra!",
    ownerReplyAt: new Date("2026-10-08T12:00:00Z"),
  }),
  // A complaint the owner already answered on the platform: no draft.
  review("answered-en", {
    author: "Tom",
    rating: 1,
    language: "en",
    text: "Rude waiter and a dirty table.",
    ownerReply: "We are sorry, Tom.",
    ownerReplyAt: new Date("2026-10-06T12:00:00Z"),
  }),
];

async function runFor(actor: Actor, place: string): Promise<string> {
  const run = await executePipeline(
    ctxOf(db, actor),
    { pipeline_id: PIPELINE, input: { place_key: place } },
    { maxActivePerPrincipal: 1_000 },
  );
  expect(await runExecution(systemCtx(db), { executionId: run.id })).toBe("succeeded");
  return run.id;
}

const list = (actor: Actor, executionId: string, extra: Record<string, unknown> = {}) =>
  listReplyDrafts(
    ctxOf(db, actor),
    ZListReplyDraftsInput.parse({ pipeline_id: PIPELINE, execution_id: executionId, ...extra }),
  );

async function notFound(promise: Promise<unknown>): Promise<string> {
  const error = await rejectionOf(promise, AppError);
  expect(error.code).toBe("NOT_FOUND");
  return error.message;
}

describe("reply drafts", () => {
  it("a run drafts replies for the reviews that need one, in their language, and only those", async () => {
    const a = await makeApiKey(db, [...WRITE]);
    const place = uid("replies-place");
    await collectedJob(db, { apiKeyId: a.id, placeKey: place, reviews: REVIEWS });
    const executionId = await runFor(a.actor, place);
    const ids = new Map(
      (await db.review.findMany({ where: { placeKey: place }, select: { id: true, externalId: true } })).map((r) => [
        r.externalId,
        r.id,
      ]),
    );
    // Written by the run itself, before any page asked.
    expect(await db.replyDraft.count({ where: { executionId } })).toBe(4);

    const page = await list(a.actor, executionId);
    expect(page.total).toBe(4);
    expect(page.counts).toEqual({ draft: 4, approved: 0, discarded: 0 });
    const byExternal = new Map(page.items.map((d) => [[...ids].find(([, id]) => id === d.review_id)?.[0], d]));
    expect([...byExternal.keys()].sort()).toEqual(["critical-es", "fr", "low-de", "low-en"]);
    // The health-and-safety case comes first.
    expect(page.items[0]?.review_id).toBe(ids.get("critical-es"));

    const en = byExternal.get("low-en")!;
    expect(en).toMatchObject({ language: "en", fallback_from: null, source: "template", state: "draft" });
    expect(en.reasons).toEqual(expect.arrayContaining(["low_rating", "negative"]));
    expect(en.text.startsWith("Dear Anna K.,")).toBe(true);
    expect(en.text).toContain("the food");
    expect(en.review).toMatchObject({ author: "Anna K.", stored: true });

    const es = byExternal.get("critical-es")!;
    expect(es).toMatchObject({ language: "es", critical: true });
    expect(es.reasons).toContain("critical");
    expect(es.text.startsWith("Hola, Lucía:")).toBe(true);
    expect(es.text).toContain("la salud y la seguridad de nuestros clientes");

    expect(byExternal.get("low-de")).toMatchObject({ language: "de" });
    expect(byExternal.get("low-de")!.text).toContain("Hallo Jonas,");
    expect(byExternal.get("fr")).toMatchObject({ language: "en", fallback_from: "fr" });

    // Re-running the draft step (a worker's take-over, the page's lazy call) writes nothing more.
    expect(await storeReplyDrafts(db, executionId, new Date())).toMatchObject({ written: 0 });
    expect(await db.replyDraft.count({ where: { executionId } })).toBe(4);

    // Reply KPIs of the run: 2 of 6 reviews answered, after 3 and 1 days.
    const rate = await getWidgetData(ctxOf(db, a.actor), {
      pipeline_id: PIPELINE,
      execution_id: executionId,
      widget_id: "reply_rate",
    });
    expect(rate).toMatchObject({ state: "ready", data: { kind: "StatCard", value: 33.3, secondary: "2/6" } });
    const median = await getWidgetData(ctxOf(db, a.actor), {
      pipeline_id: PIPELINE,
      execution_id: executionId,
      widget_id: "median_response_time",
    });
    expect(median).toMatchObject({ state: "ready", data: { value: 2, secondary: "2" } });
    const months = await getWidgetData(ctxOf(db, a.actor), {
      pipeline_id: PIPELINE,
      execution_id: executionId,
      widget_id: "replies_over_time",
    });
    expect(months.data).toMatchObject({
      kind: "LineChart",
      rows: [
        { month: "2026-10", reply_rate: 40, median_response_days: 2 },
        { month: "2026-11", reply_rate: 0 },
      ],
    });
  });

  it("drafts are edited while drafts, approved or discarded, reopened, and their state tracked", async () => {
    const a = await makeApiKey(db, [...WRITE]);
    const place = uid("replies-states");
    await collectedJob(db, { apiKeyId: a.id, placeKey: place, reviews: REVIEWS });
    const executionId = await runFor(a.actor, place);
    const [first, second] = (await list(a.actor, executionId)).items;
    const ids = { pipeline_id: PIPELINE, execution_id: executionId };
    const ctx = ctxOf(db, a.actor);

    const edited = await editReplyDraft(
      ctx,
      ZEditReplyDraftInput.parse({ ...ids, draft_id: first!.id, text: "  Thank you, we are on it.  " }),
    );
    expect(edited).toMatchObject({
      state: "draft",
      text: "Thank you, we are on it.",
      edited: true,
      changed_by: "api_key",
    });
    const stored = await db.replyDraft.findUniqueOrThrow({ where: { id: first!.id } });
    expect(stored.changedByApiKeyId).toBe(a.id);

    expect(await approveReplyDraft(ctx, { ...ids, draft_id: first!.id })).toMatchObject({ state: "approved" });
    // Approved: no more edits, approvals or discards until it is reopened.
    const conflict = await rejectionOf(editReplyDraft(ctx, { ...ids, draft_id: first!.id, text: "Changed" }), AppError);
    expect(conflict).toMatchObject({ code: "CONFLICT", message: "reply_draft_state", details: { state: "approved" } });
    await expect(discardReplyDraft(ctx, { ...ids, draft_id: first!.id })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await reopenReplyDraft(ctx, { ...ids, draft_id: first!.id })).toMatchObject({ state: "draft" });
    expect(await approveReplyDraft(ctx, { ...ids, draft_id: first!.id, text: "Final words." })).toMatchObject({
      state: "approved",
      text: "Final words.",
    });
    expect(await discardReplyDraft(ctx, { ...ids, draft_id: second!.id })).toMatchObject({ state: "discarded" });
    await expect(
      reopenReplyDraft(ctx, { ...ids, draft_id: (await list(a.actor, executionId, { state: "draft" })).items[0]!.id }),
    ).rejects.toMatchObject({ code: "CONFLICT" });

    const page = await list(a.actor, executionId);
    expect(page.counts).toEqual({ draft: 2, approved: 1, discarded: 1 });
    expect((await list(a.actor, executionId, { state: "approved" })).items.map((d) => d.id)).toEqual([first!.id]);
    const paged = await list(a.actor, executionId, { pageSize: 3, page: 2 });
    expect(paged).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(paged.items).toHaveLength(1);

    // Text is bounded: empty and over-long texts are refused at the boundary.
    expect(ZEditReplyDraftInput.safeParse({ ...ids, draft_id: first!.id, text: "   " }).success).toBe(false);
    expect(ZEditReplyDraftInput.safeParse({ ...ids, draft_id: first!.id, text: "x".repeat(4_001) }).success).toBe(
      false,
    );

    // An administrator sees every run, so its drafts too, and its change is recorded as a user's.
    const admin = actorOf(await makeUser(db, { admin: true }));
    expect((await list(admin, executionId)).total).toBe(4);
    expect(
      await editReplyDraft(ctxOf(db, admin), { ...ids, draft_id: second!.id, text: "x" }).catch(
        (e: AppError) => e.message,
      ),
    ).toBe("reply_draft_state");
  });

  it("another key can neither see nor change a run's drafts (404, as for absent ones)", async () => {
    const a = await makeApiKey(db, [...WRITE]);
    const b = await makeApiKey(db, [...WRITE]);
    const place = uid("replies-owner");
    await collectedJob(db, { apiKeyId: a.id, placeKey: place, reviews: REVIEWS });
    const executionId = await runFor(a.actor, place);
    const draft = (await list(a.actor, executionId)).items[0]!;
    const ids = { pipeline_id: PIPELINE, execution_id: executionId, draft_id: draft.id };
    const ctxB = ctxOf(db, b.actor);

    expect(await notFound(list(b.actor, executionId))).toBe("execution_not_found");
    expect(await notFound(editReplyDraft(ctxB, { ...ids, text: "Mine now" }))).toBe("reply_draft_not_found");
    expect(await notFound(approveReplyDraft(ctxB, ids))).toBe("reply_draft_not_found");
    expect(await notFound(discardReplyDraft(ctxB, ids))).toBe("reply_draft_not_found");
    expect(await notFound(reopenReplyDraft(ctxB, ids))).toBe("reply_draft_not_found");
    // B's own run does not open A's draft either: a draft is found only under its own execution.
    const own = uid("replies-b");
    await collectedJob(db, { apiKeyId: b.id, placeKey: own, reviews: REVIEWS });
    const bRun = await runFor(b.actor, own);
    expect(await notFound(approveReplyDraft(ctxB, { ...ids, execution_id: bRun }))).toBe("reply_draft_not_found");
    // A draft id that does not exist answers the same.
    expect(
      await notFound(
        approveReplyDraft(ctxOf(db, a.actor), { ...ids, draft_id: "00000000-0000-7000-8000-000000000000" }),
      ),
    ).toBe("reply_draft_not_found");
    // Nothing changed.
    expect(await db.replyDraft.findUniqueOrThrow({ where: { id: draft.id } })).toMatchObject({
      state: "draft",
      text: draft.text,
      changedByApiKeyId: null,
    });
    // A read-only key of its own reads but cannot change.
    const reader = await makeApiKey(db, ["jobs:read"]);
    await expect(approveReplyDraft(ctxOf(db, reader.actor), ids)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("a run from before drafts gets them when its replies are first listed", async () => {
    const a = await makeApiKey(db, [...WRITE]);
    const place = uid("replies-lazy");
    await collectedJob(db, { apiKeyId: a.id, placeKey: place, reviews: REVIEWS });
    const executionId = await runFor(a.actor, place);
    await db.replyDraft.deleteMany({ where: { executionId } });
    expect((await list(a.actor, executionId)).total).toBe(4);
    expect(await db.replyDraft.count({ where: { executionId } })).toBe(4);
  });
});
