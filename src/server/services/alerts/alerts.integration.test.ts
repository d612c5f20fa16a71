import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/services/actor";
import type { ReviewActor } from "@/server/services/reviews/access";
import { smtpMailer } from "@/server/mail/transport";
import { testDb, uid } from "@/test/helpers";
import { startLoopbackSmtp, type LoopbackSmtp } from "@/test/loopback-smtp";
import { collectedJob, ctxOf, makeApiKey, makeBatch, systemCtx, TEST_ORIGIN } from "@/test/pipeline-fixtures";
import { startReceiver, testSettings, verifyStandardWebhook } from "@/test/review-fixtures";
import type { ReviewContent } from "@/server/services/reviews/review-store";
import { placeIdOf } from "@/server/services/reviews/place-store";
import { executePipeline } from "../pipelines/execute-pipeline";
import { runExecution } from "../pipelines/run-execution";
import { queueScheduleAnalysis } from "../pipelines/schedule-analysis";
import { createAlertRule, listAlertRules } from "./alert-rules";
import { ZCreateAlertRuleInput } from "./alert-rules.schema";
import { attemptAlertDelivery, takeAlertDeliveries, type AlertDeliveryDeps } from "./deliver-alerts";

// Alert rules (docs/review-engine.md, "Alerts"): they fire on the analysis runs their owner could read,
// once per review and rule, and go out by signed webhook and e-mail (and into a mesh: review-bot tests).
const db = testDb();
const settings = testSettings();
let smtp: LoopbackSmtp;
beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  await db.user.create({ data: { id: ADMIN_ID, email: `${ADMIN_ID}@example.test`, name: "Admin" } });
});
afterAll(async () => {
  await smtp.close();
  await db.$disconnect();
});

const LIMITS = { maxActivePerPrincipal: 1_000 };
const ADMIN_ID = uid("alerts-admin");
const ADMIN: ReviewActor = { kind: "administrator", userId: ADMIN_ID };

const review = (over: Partial<ReviewContent> & { text: string; rating: number }): ReviewContent => ({
  externalId: uid("r"),
  author: "Sam",
  language: "en",
  publishedAt: new Date(),
  ownerReply: null,
  ...over,
});

async function placeOf(placeKey: string, name: string) {
  const id = placeIdOf({ platform: "platform", origin: TEST_ORIGIN, placeKey });
  await db.place.create({ data: { id, platform: "platform", origin: TEST_ORIGIN, placeKey, name } });
  return id;
}

/** A collected job of the place, linked to its place row as the engine links it. */
async function collected(placeId: string, opts: Parameters<typeof collectedJob>[1]) {
  const job = await collectedJob(db, opts);
  await db.job.update({ where: { id: job.id }, data: { placeRefId: placeId } });
  return job;
}

async function analyse(actor: Actor, input: Record<string, unknown>) {
  const run = await executePipeline(ctxOf(db, actor, settings), { pipeline_id: "review-analytics", input }, LIMITS);
  expect(await runExecution(systemCtx(db, settings), { executionId: run.id })).toBe("succeeded");
  return run.id;
}

/** Attempts every due delivery of the test's queue until none is left (each at most `rounds` times). */
async function deliverAll(deps: AlertDeliveryDeps, rounds = 3) {
  const ctx = systemCtx(db, settings);
  for (let i = 0; i < rounds; i++) {
    const taken = await takeAlertDeliveries(ctx, { queue: settings.JOB_QUEUE, leaseMs: 30_000, limit: 100 });
    if (taken.length === 0) return;
    for (const d of taken) await attemptAlertDelivery(ctx, d, deps);
  }
}

const rule = (actor: ReviewActor, input: Record<string, unknown>) =>
  createAlertRule(ctxOf(db, actor, settings), ZCreateAlertRuleInput.parse(input));

describe("alert rules", () => {
  it("fire once per new review and rule, and arrive as a signed webhook and an e-mail", async () => {
    const key = await makeApiKey(db, ["jobs:read", "jobs:write"]);
    const placeKey = uid("trattoria");
    const placeId = await placeOf(placeKey, "Trattoria Alerta");
    // Collected before the rules existed: never an alert.
    await collected(placeId, {
      apiKeyId: key.id,
      placeKey,
      reviews: [review({ rating: 1, text: "Awful evening, the pasta was cold." })],
    });
    const receiver = await startReceiver([200]);
    try {
      const low = await rule(key.actor, {
        place_id: placeId,
        kind: "low_rating",
        threshold: 2,
        webhook_url: receiver.url,
        email: "owner@trattoria.example.test",
        name: "Bad reviews",
      });
      expect(low.webhook_secret).toMatch(/^whsec_/);
      const health = await rule(key.actor, { place_id: placeId, kind: "health_safety", webhook_url: receiver.url });
      // Another key that collected the same place: its rule never fires on the first key's runs.
      const other = await makeApiKey(db, ["jobs:read", "jobs:write"]);
      await collected(placeId, { apiKeyId: other.id, placeKey, reviews: [review({ rating: 3, text: "Fine." })] });
      await rule(other.actor, { place_id: placeId, kind: "low_rating", threshold: 5, email: "rival@example.test" });

      const cold = review({ rating: 1, text: "The pasta was cold and the waiter was rude to us." });
      const sick = review({ rating: 4, text: "Nice room, but I got food poisoning from the chicken, it was raw." });
      const old = review({
        rating: 1,
        text: "Terrible food, cold and bland.",
        publishedAt: new Date(Date.now() - 400 * 86_400_000),
      });
      await collected(placeId, {
        apiKeyId: key.id,
        placeKey,
        reviews: [cold, sick, old, review({ rating: 5, text: "Lovely dinner, great food." })],
      });
      await analyse(key.actor, { place_key: placeKey });

      const alerts = await db.alert.findMany({ where: { rule: { placeId } }, include: { rule: true } });
      const fired = alerts.map((a) => [
        a.rule.kind,
        (a.payload as { review: { external_id: string } }).review.external_id,
      ]);
      expect(fired.sort()).toEqual(
        [
          ["health_safety", sick.externalId],
          ["low_rating", cold.externalId],
        ].sort(),
      );

      // A second run over the same reviews makes no alert again.
      await analyse(key.actor, { place_key: placeKey });
      expect(await db.alert.count({ where: { rule: { placeId } } })).toBe(2);

      await deliverAll({
        publicBaseUrl: "http://localhost:3000",
        mailer: smtpMailer(smtp.url, "Review Mesh <alerts@example.test>"),
        sendToMesh: null,
      });
      expect(receiver.received).toHaveLength(2);
      for (const r of receiver.received) {
        const secret = r.body.includes('"kind":"health_safety"') ? health.webhook_secret : low.webhook_secret;
        expect(await verifyStandardWebhook(secret as string, r)).toBe(true);
        const body = JSON.parse(r.body) as { type: string; data: { links: { run: string }; place: { name: string } } };
        expect(body.type).toBe("review.alert");
        expect(body.data.place.name).toBe("Trattoria Alerta");
        expect(body.data.links.run).toMatch(/^http:\/\/localhost:3000\/en\/pipelines\/review-analytics\/executions\//);
      }
      const mail = smtp.received.find((m) => m.to && JSON.stringify(m.to).includes("owner@trattoria.example.test"));
      expect(mail?.subject).toBe("New 1-star review of Trattoria Alerta");
      expect(mail?.text).toContain("The pasta was cold and the waiter was rude to us.");
      expect(mail?.text).toContain("http://localhost:3000/en/pipelines/review-analytics/executions/");
      expect(smtp.received.some((m) => JSON.stringify(m.to).includes("rival@example.test"))).toBe(false);

      const listed = await listAlertRules(ctxOf(db, key.actor), { place_id: placeId });
      expect(listed.map((r) => r.alert_count).sort()).toEqual([1, 1]);
      for (const r of listed)
        for (const a of r.alerts) for (const d of a.deliveries) expect(d.state, d.last_error ?? "").toBe("delivered");
      // The other key sees only its own rule, and cannot read the first key's.
      expect(await listAlertRules(ctxOf(db, other.actor), { place_id: placeId })).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("retry a webhook that answers 503 and fail one that answers 400; a place the key never read is not found", async () => {
    const key = await makeApiKey(db, ["jobs:read", "jobs:write"]);
    const placeKey = uid("bistro");
    const placeId = await placeOf(placeKey, "Bistro Retry");
    const receiver = await startReceiver([503, 200]);
    const refusing = await startReceiver([400]);
    try {
      await expect(
        rule(key.actor, { place_id: placeId, kind: "health_safety", email: "x@example.test" }),
      ).rejects.toMatchObject({
        message: "place_not_found",
      });
      await collected(placeId, { apiKeyId: key.id, placeKey, reviews: [review({ rating: 5, text: "Good." })] });
      await rule(key.actor, { place_id: placeId, kind: "low_rating", threshold: 1, webhook_url: receiver.url });
      await rule(key.actor, { place_id: placeId, kind: "low_rating", threshold: 1, webhook_url: refusing.url });
      await collected(placeId, { apiKeyId: key.id, placeKey, reviews: [review({ rating: 1, text: "Rude staff." })] });
      await analyse(key.actor, { place_key: placeKey });
      const deps = {
        publicBaseUrl: "http://localhost:3000",
        mailer: smtpMailer(smtp.url, "a@example.test"),
        sendToMesh: null,
      };
      await deliverAll(deps, 1);
      await new Promise((r) => setTimeout(r, 300));
      await deliverAll(deps, 3);
      const states = await db.alertDelivery.findMany({
        where: { alert: { rule: { placeId } } },
        select: { state: true, attempts: true, lastStatusCode: true },
      });
      expect(states.sort((a, b) => a.attempts - b.attempts)).toEqual([
        { state: "failed", attempts: 1, lastStatusCode: 400 },
        { state: "delivered", attempts: 2, lastStatusCode: 200 },
      ]);
      // The same webhook-id on the retry: receivers drop what they already have.
      expect(receiver.received[0]?.headers["webhook-id"]).toBe(receiver.received[1]?.headers["webhook-id"]);
    } finally {
      await receiver.close();
      await refusing.close();
    }
  });

  it("watch a category's negative share against the previous run, and a schedule's batches analysed when they end", async () => {
    const placeKey = uid("grill");
    const placeId = await placeOf(placeKey, "Grill Share");
    // Different words each (the analysis sets exact repeats aside as duplicates).
    const dishes = ["pasta", "pizza", "soup", "steak", "salad", "risotto", "fish", "lasagne"];
    const good = (n: number) =>
      dishes.slice(0, n).map((d) => review({ rating: 5, text: `The ${d} was delicious and the food was fresh.` }));
    const bad = (n: number) =>
      dishes.slice(0, n).map((d) => review({ rating: 2, text: `The ${d} was cold and the food was bland.` }));
    await collected(placeId, { apiKeyId: null, placeKey, reviews: good(8) });
    await analyse(ADMIN, { place_key: placeKey });
    await rule(ADMIN, {
      place_id: placeId,
      kind: "negative_share_rise",
      threshold: 20,
      category: "food",
      email: "chef@example.test",
    });
    await collected(placeId, { apiKeyId: null, placeKey, reviews: bad(8) });
    const second = await analyse(ADMIN, { place_key: placeKey });
    const [alert] = await db.alert.findMany({ where: { rule: { placeId } } });
    expect(alert?.subject).toBe(`share:food|${second}`);
    expect(alert?.payload).toMatchObject({
      share: { category: "food", previous_pct: 0, current_pct: 50, rise_points: 50 },
      teams: ["kitchen"],
    });

    // A schedule that analyses after each run: its ended batch queues a run over exactly that batch.
    const schedule = await db.schedule.create({
      data: {
        requesterClientId: "alerts",
        targets: [],
        intervalSeconds: 3600,
        nextRunAt: new Date(),
        analyseAfterRun: true,
        queue: settings.JOB_QUEUE,
      },
    });
    const batch = await makeBatch(db, null);
    await db.batch.update({ where: { id: batch.id }, data: { scheduleId: schedule.id } });
    await rule(ADMIN, { schedule_id: schedule.id, kind: "low_rating", threshold: 2, email: "desk@example.test" });
    const slotReview = review({ rating: 2, text: "Slow and cold." });
    await collected(placeId, { apiKeyId: null, placeKey, reviews: [slotReview], batchId: batch.id });
    const executionId = await db.$transaction((tx) => queueScheduleAnalysis(tx, batch.id));
    expect(executionId).not.toBeNull();
    const queued = await db.pipelineExecution.findUniqueOrThrow({ where: { id: executionId as string } });
    expect(queued).toMatchObject({ status: "queued", input: { batch_ids: [batch.id] }, readScopeApiKeyId: null });
    expect(await runExecution(systemCtx(db, settings), { executionId: executionId as string })).toBe("succeeded");
    const slotAlerts = await db.alert.findMany({ where: { rule: { scheduleId: schedule.id } } });
    expect(slotAlerts.map((a) => a.subject)).toEqual([
      `review:platform|${TEST_ORIGIN}|${placeKey}|${slotReview.externalId}`,
    ]);
    // A schedule without analysis queues nothing.
    await db.schedule.update({ where: { id: schedule.id }, data: { analyseAfterRun: false } });
    expect(await db.$transaction((tx) => queueScheduleAnalysis(tx, batch.id))).toBeNull();
  });
});
